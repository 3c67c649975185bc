// A failed omp_test_lock: OMPT reports the attempt (mutex_acquire) and,
// only when it succeeds, mutex_acquired; nothing says it failed. The writer
// closes the attempt's wait region at the thread's next event (docs/trace.md,
// "Balanced regions") with a Leave marked otter:closed, which OTTER's reader
// skips: the events read back are the ones recorded (3000 attempts, one
// acquisition each for the two successful locks). Thread 1 tries 3000 times
// while thread 0 holds the lock, then once after it was released.
// With 1024-event buffers the attempts also end buffers: their outcome is
// then the next buffer's first event.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: %t > %t.plain
// RUN: rm -rf %t.d %t.s
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d %t > %t.traced
// RUN: diff %t.plain %t.traced
// RUN: %check-trace %t.d
// RUN: %check-rebuild %t.d
// RUN: otter dump --no-time --kind mutex_acquire %t.d | sort | uniq -c | FileCheck --check-prefix=TRIES %s
// RUN: otter dump --no-time --kind mutex_acquired %t.d | sort | uniq -c | FileCheck --check-prefix=GOT %s
// RUN: otf2-print %t.d/trace/traces.otf2 | grep -A1 'LEAVE .*"lock (acquire) @' | grep -c '"otter:closed"' | FileCheck --check-prefix=CLOSED %s
// RUN: %otter-run OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.s %t > %t.traced2
// RUN: diff %t.plain %t.traced2
// RUN: %check-trace %t.s
// RUN: %check-rebuild %t.s
// RUN: otf2-print %t.s/trace/traces.otf2 | grep -A1 'LEAVE .*"lock (acquire) @' | grep -c '"otter:closed"' | FileCheck --check-prefix=CLOSED %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t l;
  omp_init_lock(&l);
  int held = 0, done = 0, released = 0, fails = 0, got = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      omp_set_lock(&l); // TRIES-DAG: {{^ *}}1 mutex_acquire {{.*}}kind=lock {{.*}}code={{.*}}test-lock-failed.c:[[@LINE]]
      __atomic_store_n(&held, 1, __ATOMIC_SEQ_CST);
      while (!__atomic_load_n(&done, __ATOMIC_SEQ_CST))
        ;
      omp_unset_lock(&l);
      __atomic_store_n(&released, 1, __ATOMIC_SEQ_CST);
    } else {
      while (!__atomic_load_n(&held, __ATOMIC_SEQ_CST))
        ;
      for (int i = 0; i < 3000; i++)
        if (!omp_test_lock(&l)) // TRIES-DAG: {{^ *}}3000 mutex_acquire {{.*}}kind=test_lock {{.*}}code={{.*}}test-lock-failed.c:[[@LINE]]
          fails++;
      __atomic_store_n(&done, 1, __ATOMIC_SEQ_CST);
      while (!__atomic_load_n(&released, __ATOMIC_SEQ_CST))
        ;
      if (omp_test_lock(&l)) { // TRIES-DAG: {{^ *}}1 mutex_acquire {{.*}}kind=test_lock {{.*}}code={{.*}}test-lock-failed.c:[[@LINE]]
        got = 1;
        omp_unset_lock(&l);
      }
    }
  }
  omp_destroy_lock(&l);
  printf("failed %d, then got it: %d\n", fails, got);
  return 0;
}
// GOT-DAG: {{^ *}}1 mutex_acquired {{.*}}kind=lock {{.*}}test-lock-failed.c:[[@LINE-25]]
// GOT-DAG: {{^ *}}1 mutex_acquired {{.*}}kind=test_lock {{.*}}test-lock-failed.c:[[@LINE-11]]
// GOT-NOT: mutex_acquired
// CLOSED: {{^3000$}}
