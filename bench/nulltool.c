/* bench/nulltool.c - the do-nothing OMPT tool: OTTER's overhead floor.
 * Registers exactly the callbacks libotter registers (runtime/ompt/tool.cpp:
 * thread_begin/end, parallel_begin/end, implicit_task, task_create,
 * task_schedule, dependences, task_dependence, sync_region,
 * sync_region_wait, work, masked, mutex_acquire/acquired/released,
 * nest_lock, cancel, dispatch, flush, reduction; and runtime/ompt/
 * callbacks_target.cpp: target_emi, target_data_op_emi, target_submit_emi,
 * device_initialize, device_load) with empty bodies, so
 * "libotter minus nulltool" is the cost of OTTER's own code and not libomp's
 * OMPT dispatch.  Keep this list in sync with tool.cpp (NULLTOOL_VERBOSE=1
 * prints each registration result).
 *
 * Built twice by bench/run.py:
 *   nulltool.so   : empty callbacks (the baseline "do-nothing tool")
 *   counttool.so  : -DCOUNT_EVENTS, counts each callback in per-thread
 *                   counters (no atomics on the hot path) and prints the
 *                   totals to stderr at ompt finalize.
 * Use: OMP_TOOL_LIBRARIES=$PWD/nulltool.so ./fib 30
 * Origin: /work/shared/bench (extended to OTTER's callback set). */
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef COUNT_EVENTS
enum { C_THREAD_BEGIN, C_THREAD_END, C_PAR_BEGIN, C_PAR_END, C_TASK_CREATE,
       C_TASK_SCHEDULE, C_IMPLICIT_TASK, C_WORK, C_SYNC, C_MASKED, C_DEPS,
       C_TASK_DEP, C_SYNC_WAIT, C_MUTEX, C_CANCEL, C_DISPATCH, C_FLUSH, C_N };
static const char *names[C_N] = {"thread_begin", "thread_end", "parallel_begin",
                                 "parallel_end", "task_create", "task_schedule",
                                 "implicit_task", "work", "sync_region", "masked",
                                 "dependences", "task_dependence", "sync_region_wait",
                                 "mutex/nest_lock", "cancel", "dispatch", "flush"};
typedef struct { uint64_t c[C_N]; char pad[64]; } counters_t;
#define MAXT 1024
static counters_t *all[MAXT];
static int nthreads_seen = 0;
static __thread counters_t *mine = NULL;
static counters_t *get_mine(void) {
  if (!mine) {
    mine = calloc(1, sizeof(counters_t));
    int slot = __atomic_fetch_add(&nthreads_seen, 1, __ATOMIC_RELAXED);
    if (slot < MAXT) all[slot] = mine;
  }
  return mine;
}
#define COUNT(k) (get_mine()->c[k]++)
#else
#define COUNT(k) ((void)0)
#endif

static void on_thread_begin(ompt_thread_t t, ompt_data_t *d) { COUNT(C_THREAD_BEGIN); }
static void on_thread_end(ompt_data_t *d) { COUNT(C_THREAD_END); }
static void on_parallel_begin(ompt_data_t *et, const ompt_frame_t *ef, ompt_data_t *p,
                              unsigned int req, int flags, const void *ra) { COUNT(C_PAR_BEGIN); }
static void on_parallel_end(ompt_data_t *p, ompt_data_t *et, int flags, const void *ra) {
  COUNT(C_PAR_END);
}
static void on_task_create(ompt_data_t *et, const ompt_frame_t *ef, ompt_data_t *nt, int flags,
                           int has_deps, const void *ra) { COUNT(C_TASK_CREATE); }
static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t st, ompt_data_t *next) {
  COUNT(C_TASK_SCHEDULE);
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                             unsigned int n, unsigned int idx, int flags) { COUNT(C_IMPLICIT_TASK); }
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    uint64_t count, const void *ra) { COUNT(C_WORK); }
static void on_sync_region(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                           ompt_data_t *t, const void *ra) { COUNT(C_SYNC); }
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, const void *ra) {
  COUNT(C_MASKED);
}

static void on_dependences(ompt_data_t *t, const ompt_dependence_t *deps, int n) {
  COUNT(C_DEPS);
}
static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) { COUNT(C_TASK_DEP); }
static void on_sync_region_wait(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                                ompt_data_t *t, const void *ra) { COUNT(C_SYNC_WAIT); }
static void on_mutex_acquire(ompt_mutex_t k, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t w, const void *ra) { COUNT(C_MUTEX); }
static void on_mutex_acquired(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  COUNT(C_MUTEX);
}
static void on_mutex_released(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  COUNT(C_MUTEX);
}
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void *ra) {
  COUNT(C_MUTEX);
}
static void on_cancel(ompt_data_t *t, int flags, const void *ra) { COUNT(C_CANCEL); }
static void on_dispatch(ompt_data_t *p, ompt_data_t *t, ompt_dispatch_t k, ompt_data_t inst) {
  COUNT(C_DISPATCH);
}
static void on_flush(ompt_data_t *th, const void *ra) { COUNT(C_FLUSH); }
static void on_reduction(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                         ompt_data_t *t, const void *ra) { COUNT(C_SYNC); }

/* Target offload (runtime/ompt/callbacks_target.cpp registers these five):
 * empty, so that an offload benchmark compares like with like. */
static void on_target_emi(ompt_target_t k, ompt_scope_endpoint_t ep, int dev,
                          ompt_data_t *task, ompt_data_t *target_task,
                          ompt_data_t *target, const void *ra) {}
static void on_target_data_op_emi(ompt_scope_endpoint_t ep, ompt_data_t *target_task,
                                  ompt_data_t *target, ompt_id_t *host_op,
                                  ompt_target_data_op_t op, void *src, int src_dev,
                                  void *dst, int dst_dev, size_t bytes,
                                  const void *ra) {}
static void on_target_submit_emi(ompt_scope_endpoint_t ep, ompt_data_t *target,
                                 ompt_id_t *host_op, unsigned int teams) {}
static void on_device_initialize(int dev, const char *type, ompt_device_t *d,
                                 ompt_function_lookup_t lookup, const char *doc) {}
static void on_device_load(int dev, const char *file, int64_t off, void *vma,
                           size_t bytes, void *host, void *devaddr, uint64_t module) {}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *td) {
  ompt_set_callback_t set_cb = (ompt_set_callback_t)lookup("ompt_set_callback");
#define REG(ev, fn)                                                              \
  do {                                                                           \
    ompt_set_result_t r = set_cb(ev, (ompt_callback_t)fn);                       \
    if (getenv("NULLTOOL_VERBOSE")) fprintf(stderr, "nulltool: %-28s -> %d\n", #ev, (int)r); \
  } while (0)
  REG(ompt_callback_thread_begin, on_thread_begin);
  REG(ompt_callback_thread_end, on_thread_end);
  REG(ompt_callback_parallel_begin, on_parallel_begin);
  REG(ompt_callback_parallel_end, on_parallel_end);
  REG(ompt_callback_task_create, on_task_create);
  REG(ompt_callback_task_schedule, on_task_schedule);
  REG(ompt_callback_implicit_task, on_implicit_task);
  REG(ompt_callback_work, on_work);
  REG(ompt_callback_sync_region, on_sync_region);
  REG(ompt_callback_masked, on_masked);
  REG(ompt_callback_dependences, on_dependences);
  REG(ompt_callback_task_dependence, on_task_dependence);
  REG(ompt_callback_sync_region_wait, on_sync_region_wait);
  REG(ompt_callback_mutex_acquire, on_mutex_acquire);
  REG(ompt_callback_mutex_acquired, on_mutex_acquired);
  REG(ompt_callback_mutex_released, on_mutex_released);
  REG(ompt_callback_nest_lock, on_nest_lock);
  REG(ompt_callback_cancel, on_cancel);
  REG(ompt_callback_dispatch, on_dispatch);
  REG(ompt_callback_flush, on_flush);
  REG(ompt_callback_reduction, on_reduction);
  REG(ompt_callback_target_emi, on_target_emi);
  REG(ompt_callback_target_data_op_emi, on_target_data_op_emi);
  REG(ompt_callback_target_submit_emi, on_target_submit_emi);
  REG(ompt_callback_device_initialize, on_device_initialize);
  REG(ompt_callback_device_load, on_device_load);
  return 1; /* keep the tool active */
}

static void tool_finalize(ompt_data_t *td) {
#ifdef COUNT_EVENTS
  uint64_t tot[C_N] = {0}, sum = 0;
  int n = nthreads_seen < MAXT ? nthreads_seen : MAXT;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < C_N; k++) tot[k] += all[i]->c[k];
  for (int k = 0; k < C_N; k++) {
    fprintf(stderr, "counttool: %-16s %12lu\n", names[k], (unsigned long)tot[k]);
    sum += tot[k];
  }
  fprintf(stderr, "counttool: %-16s %12lu (threads seen: %d)\n", "TOTAL", (unsigned long)sum,
          nthreads_seen);
#endif
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result = {&tool_initialize, &tool_finalize, {.value = 0}};
  return &result;
}
