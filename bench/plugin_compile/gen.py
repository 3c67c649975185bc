#!/usr/bin/env python3
"""Generate a C source with many OpenMP directives (default 1200) for the
plugin's compile-time/.text-size benchmark (see measure.py)."""
import sys

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200  # 6 directives each
    out = sys.stdout
    out.write("#include <omp.h>\nextern int sink(int);\nstatic omp_lock_t L;\n")
    for f in range(n):
        out.write(f"""
int work{f}(int n, double *a) {{
  int s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) {{
    a[i] = a[i] * 0.5 + {f};
    s += (int)a[i];
  }}
#pragma omp parallel
  {{
#pragma omp single
    {{
#pragma omp task firstprivate(n)
      sink(n + {f});
#pragma omp taskwait
    }}
#pragma omp critical
    s += sink({f});
  }}
  omp_set_lock(&L);
  s += sink(s);
  omp_unset_lock(&L);
  return s;
}}
""")
    return 0

if __name__ == "__main__":
    sys.exit(main())
