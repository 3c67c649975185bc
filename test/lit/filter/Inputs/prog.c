// The filter tests' program (test/lit/filter/): a task with a child task
// and a taskwait in solver_step, a task and a taskwait in another file
// (work.c), a taskgroup, a critical section and a second parallel region,
// all inside one parallel region with a single.
#include <stdio.h>

void work_tasks(int *x);

static void solver_step(int *y) {
#pragma omp task
  {
#pragma omp atomic
    *y += 1;
#pragma omp task
    {
#pragma omp atomic
      *y += 2;
    }
  }
#pragma omp taskwait
}

int main(void) {
  int x = 0, y = 0, z = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      solver_step(&y);
      work_tasks(&x);
#pragma omp taskgroup
      {
#pragma omp task
        {
#pragma omp atomic
          x += 1;
        }
      }
    }
#pragma omp critical
    z += 1;
  }
#pragma omp parallel num_threads(2)
#pragma omp atomic
  z += 4;
  printf("x=%d y=%d z=%d\n", x, y, z);
  return 0;
}
