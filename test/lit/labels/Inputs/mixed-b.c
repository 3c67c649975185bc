// Instrumented, linked after Inputs/uninstr.c (test/lit/labels/mixed.c): its
// sites lie above the uninstrumented code in the text section.
extern int total;
void instr_after(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
#pragma omp task
      {
#pragma omp atomic
        total += 10000;
      }
    }
  }
}
