//===- graph/large_stack.cpp - Running a deep walk on a large stack ------===//
//
// runWithLargeStack (builder.h): the graph walk recurses as deep as the
// program's task nesting, so it runs on a thread of its own with a 1 GiB
// stack (reserved, not committed); where no such thread can be made, on the
// caller's. Split from builder.cpp, which holds the walk itself.
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"

#include <pthread.h>

namespace otter {

void runWithLargeStack(const std::function<void()> &Fn) {
  struct Ctx {
    const std::function<void()> *Fn;
  } C{&Fn};
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) == 0) {
    pthread_t Th;
    bool Ok = pthread_attr_setstacksize(&Attr, std::size_t(1) << 30) == 0 &&
              pthread_create(
                  &Th, &Attr,
                  [](void *P) -> void * {
                    (*static_cast<Ctx *>(P)->Fn)();
                    return nullptr;
                  },
                  &C) == 0;
    pthread_attr_destroy(&Attr);
    if (Ok) {
      pthread_join(Th, nullptr);
      return;
    }
  }
  Fn();
}

} // namespace otter
