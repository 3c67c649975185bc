/* bench/offload.c - OTTER overhead benchmark: target offload (issue 29).
 * Many small synchronous target regions, each mapping K ints to the device
 * and back (an allocation, a transfer to the device, a kernel, a transfer
 * from the device, a deletion: libomptarget's host plugin, device 0), so
 * the cost of the target callbacks (target_emi, target_data_op_emi,
 * target_submit_emi) and of the kernel's league dominates.
 * Usage: offload [regions=2000] [K=16]
 * Built for host offload (-fopenmp-targets=x86_64-unknown-linux-gnu; run
 * with libomptarget's directory on LD_LIBRARY_PATH: bench/run.py does).
 * Prints a checksum, tasks=REGIONS (bench/run.py's "per task" is then per
 * target region) and transfers=2*REGIONS. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int regions = argc > 1 ? atoi(argv[1]) : 2000;
  int k = argc > 2 ? atoi(argv[2]) : 16;
  if (regions < 1 || k < 1 || k > 1 << 20) {
    fprintf(stderr, "usage: offload [regions>0] [K in 1..1048576]\n");
    return 2;
  }
  int *x = calloc((size_t)k, sizeof *x);
  if (!x)
    return 1;
  for (int r = 0; r < regions; ++r) {
#pragma omp target map(tofrom : x[0 : k])
    for (int i = 0; i < k; ++i)
      x[i] += i;
  }
  long sum = 0;
  for (int i = 0; i < k; ++i)
    sum += x[i];
  printf("checksum=%ld tasks=%d transfers=%d\n", sum, regions, 2 * regions);
  free(x);
  return 0;
}
