// A proxy task (what a target nowait is to libomp) completed out of order
// from a thread of the program's own (__kmpc_proxy_task_completed_ooo), as
// in LLVM's tasking/bug_nested_proxy_task.c: libomp never reports the end of
// the thread's part of it, and the task, wait and taskgroup regions around
// it were left open at exit. The writer closes every region still open when
// the trace is closed (docs/trace.md, "Balanced regions"). The proxy tasks
// are made with libomp's entry points, as a compiler would.
// RUN: %clang -fopenmp %s -o %t -lpthread
// RUN: %t > %t.plain
// RUN: rm -rf %t.d
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d %t > %t.traced
// RUN: diff %t.plain %t.traced
// RUN: %check-trace %t.d
// RUN: %check-rebuild %t.d
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
// libomp's own types and entry points (kmp.h), as LLVM's test declares them.
typedef struct ident ident_t;
struct kmp_task;
typedef int32_t (*kmp_routine_entry_t)(int32_t, struct kmp_task *);
typedef struct kmp_task {
  void *shareds;
  kmp_routine_entry_t routine;
  int32_t part_id;
} kmp_task_t;
int32_t __kmpc_global_thread_num(ident_t *);
kmp_task_t *__kmpc_omp_task_alloc(ident_t *, int32_t gtid, int32_t flags,
                                  size_t sizeof_task, size_t sizeof_shareds,
                                  kmp_routine_entry_t entry);
void __kmpc_proxy_task_completed_ooo(kmp_task_t *task);
int32_t __kmpc_omp_task(ident_t *, int32_t gtid, kmp_task_t *task);
typedef struct {
  intptr_t base_addr;
  size_t len;
  uint8_t flags;
} dep_t;
int32_t __kmpc_omp_task_with_deps(ident_t *, int32_t gtid, kmp_task_t *task,
                                  int32_t ndeps, dep_t *deps, int32_t nna,
                                  dep_t *na);
enum { TiedProxy = 1 | 16, DepInOut = 1 | 2 };
static pthread_t completer[2];
static int nth;
static void *complete(void *task) {
  usleep(50000);
  __kmpc_proxy_task_completed_ooo((kmp_task_t *)task);
  return NULL;
}
static int32_t body(int32_t gtid, kmp_task_t *task) {
  (void)gtid;
  int i = __atomic_fetch_add(&nth, 1, __ATOMIC_SEQ_CST);
  pthread_create(&completer[i], NULL, complete, task);
  return 0;
}
int main(void) {
  int dep = 0;
#pragma omp taskgroup
  {
    dep_t d = {(intptr_t)&dep, sizeof(int), DepInOut};
    int32_t gtid = __kmpc_global_thread_num(NULL);
    kmp_task_t *t =
        __kmpc_omp_task_alloc(NULL, gtid, TiedProxy, sizeof(kmp_task_t), 0, body);
    __kmpc_omp_task_with_deps(NULL, gtid, t, 1, &d, 0, NULL);
#pragma omp task depend(in : dep)
    {
      kmp_task_t *n = __kmpc_omp_task_alloc(NULL, gtid, TiedProxy,
                                            sizeof(kmp_task_t), 0, body);
      __kmpc_omp_task(NULL, gtid, n);
    }
  }
  pthread_join(completer[0], NULL);
  pthread_join(completer[1], NULL);
  printf("done\n");
  return 0;
}
