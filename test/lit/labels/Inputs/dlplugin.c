// dlopen'ed after the tool started, built with the plugin
// (test/lit/labels/shared-lib.c).
int dlplugin_work(int n) {
  int s = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    {
#pragma omp taskloop num_tasks(2)
      for (int i = 0; i < n; i++) {
#pragma omp atomic
        s += i;
      }
    }
#pragma omp barrier
#pragma omp critical
    s += 1000;
  }
  return s;
}
