//===- slow_join.cpp - pthread_join that returns late ---------------------===//
//
// Preloaded into a simulated program: every join returns 2 ms after the
// thread ended, long enough for another simulated thread to start with the
// joined thread's id (glibc hands it to the next thread at once) and to end
// before the joiner goes on. A joiner that looked the joined thread's clock
// up by id then learnt the other thread's.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

extern "C" int pthread_join(pthread_t thread, void **result) {
  using Join = int (*)(pthread_t, void **);
  static Join real = reinterpret_cast<Join>(dlsym(RTLD_NEXT, "pthread_join"));
  int status = real(thread, result);
  usleep(2000);
  return status;
}
