/* Binds the libc functions that glibc 2.34 moved into libc.so.6 to their older symbol versions, so that the wheel
 * built on a newer glibc (Debian 12: 2.36) stays manylinux_2_28 or older: installable on glibc 2.28 systems
 * (RHEL/Rocky/Alma 8, Ubuntu 20.04, Debian 11), as stable-retro's and ale-py's wheels are.
 *
 * glibc 2.34 merged libdl and libpthread into libc and gave dlopen, dlsym, pthread_create... a new default version,
 * GLIBC_2.34, which is what a link on 2.34+ records; a loader older than 2.34 then refuses the library. The old
 * versions (GLIBC_2.2.5 on x86_64, GLIBC_2.17 on aarch64; dlinfo and pthread_condattr_setclock: GLIBC_2.3.3 on x86_64)
 * are still exported by every newer libc.so.6, with the same implementation, so a reference bound to them resolves
 * everywhere: in libc.so.6 on 2.34+, in libdl.so.2 / libpthread.so.0 before it. _build.py links those two by name (the
 * link on 2.34+ does not need them, so a plain -ldl would leave no DT_NEEDED) to keep them loaded on the older systems.
 *
 * _build.py force-includes this file (-include) into every C and C++ file, before anything else, only when building
 * against glibc >= 2.34 on x86_64 or aarch64: a .symver must precede the first use of its symbol. It includes no
 * header itself (Python.h must come first in cffi's generated file). scripts/check_wheel.sh fails the release build
 * if a symbol newer than manylinux_2_28 allows sneaks in: bind it here too.
 */
#ifndef EMU_GLIBC_COMPAT_H
#define EMU_GLIBC_COMPAT_H

#if defined(__x86_64__)
#define EMU_GLIBC_BASE "GLIBC_2.2.5"
#define EMU_GLIBC_2_3_3 "GLIBC_2.3.3"
#elif defined(__aarch64__)
#define EMU_GLIBC_BASE "GLIBC_2.17" /* aarch64's first glibc: every older symbol has this version */
#define EMU_GLIBC_2_3_3 "GLIBC_2.17"
#endif

#ifdef EMU_GLIBC_BASE
#define EMU_GLIBC_SYMVER(name, version) __asm__(".symver " #name "," #name "@" version);
/* libdl's, in libc since 2.34 */
EMU_GLIBC_SYMVER(dlopen, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(dlsym, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(dlclose, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(dlerror, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(dlinfo, EMU_GLIBC_2_3_3)
/* libpthread's, in libc since 2.34 */
EMU_GLIBC_SYMVER(pthread_create, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(pthread_detach, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(pthread_join, EMU_GLIBC_BASE)
EMU_GLIBC_SYMVER(pthread_condattr_setclock, EMU_GLIBC_2_3_3)
#undef EMU_GLIBC_SYMVER
#endif

#endif
