// A second source file for the filter tests' file rules: a task and a
// taskwait of its own.
void work_tasks(int *x) {
#pragma omp task
  {
#pragma omp atomic
    *x += 10;
  }
#pragma omp taskwait
}
