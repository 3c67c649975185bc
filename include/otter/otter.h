/*===- otter/otter.h - OTTER's annotation API for programs (C and C++) -===*
 *
 * Header only: a program marks its phases, names its tasks and marks
 * instants, and needs no link dependency on OTTER. Each call is one call of
 * the OpenMP routine omp_control_tool with one of OTTER's command numbers
 * (OpenMP reserves 64 and above for the tool): with OTTER loaded it records
 * an event; with no tool, or another one, the call returns at once
 * (omp_control_tool_notool -- then a second call, see otter_control_ -- or
 * the tool's "ignored") and the program is unchanged. The strings are copied by
 *OTTER: they may be freed after the call. docs/trace.md ("Annotations") says
 *what each one records.
 *
 *   #include <otter/otter.h>
 *   otter_phase_begin("solve");   // phases nest; each end closes the last
 *   otter_task_label("row 7");    // names the task that runs this line
 *   otter_mark("converged");      // an instant in the task's order
 *   otter_phase_end();
 *
 *===----------------------------------------------------------------------===*/
#ifndef OTTER_OTTER_H
#define OTTER_OTTER_H

#include <omp.h>

/* Inlined even at -O0: the call's return address, which OTTER labels the
 * event with, is then the caller's line. */
#if defined(__GNUC__) || defined(__clang__)
#define OTTER_API_INLINE static inline __attribute__((always_inline))
#else
#define OTTER_API_INLINE static inline
#endif

/* omp_control_tool commands of OTTER (arg: the name, a C string). */
#define OTTER_CONTROL_PHASE_BEGIN 64 /* a phase begins in the current task */
#define OTTER_CONTROL_PHASE_END 65   /* the current task's last phase ends */
#define OTTER_CONTROL_TASK_LABEL 66  /* names the current task */
#define OTTER_CONTROL_MARK 67        /* an instant event in the current task */

/* libomp answers omp_control_tool only once it is initialized (it says
 * "no tool" before): asking for the number of processors initializes it,
 * and the call is made again, once. */
OTTER_API_INLINE void otter_control_(int Command, const char *Name) {
  if (omp_control_tool(Command, 0, (void *)Name) == omp_control_tool_notool) {
    (void)omp_get_num_procs();
    (void)omp_control_tool(Command, 0, (void *)Name);
  }
}

/* A phase of the program named Name begins in the calling task: an OTF2
 * region of paradigm USER in the trace, a phase_begin node in the graph. */
OTTER_API_INLINE void otter_phase_begin(const char *Name) {
  otter_control_(OTTER_CONTROL_PHASE_BEGIN, Name);
}

/* The calling task's innermost open phase ends (without one: OTTER warns
 * once and ignores the call). */
OTTER_API_INLINE void otter_phase_end(void) {
  otter_control_(OTTER_CONTROL_PHASE_END, (const char *)0);
}

/* Names the calling task (an explicit task, an implicit task or the initial
 * task): the graph's node, the trace and every utility show the name. The
 * last label given wins. */
OTTER_API_INLINE void otter_task_label(const char *Label) {
  otter_control_(OTTER_CONTROL_TASK_LABEL, Label);
}

/* An instant event named Name in the calling task (a mark node in the
 * graph). */
OTTER_API_INLINE void otter_mark(const char *Name) {
  otter_control_(OTTER_CONTROL_MARK, Name);
}

#endif /* OTTER_OTTER_H */
