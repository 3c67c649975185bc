// Built WITHOUT the plugin (test/lit/labels/mixed.c): every node from here
// must get an approximate label, never an exact one.
#include <stdio.h>
extern int total;
void uninstr_work(void) {
#pragma omp for
  for (int i = 0; i < 4; i++) {
#pragma omp atomic
    total += 1;
  }
#pragma omp single
  {
#pragma omp task
    {
#pragma omp atomic
      total += 10;
    }
#pragma omp taskloop num_tasks(2)
    for (int i = 0; i < 2; i++) {
#pragma omp atomic
      total += 100;
    }
  }
#pragma omp critical
  total += 1000;
}
void uninstr_region(void) {
#pragma omp parallel num_threads(2)
  uninstr_work();
}
