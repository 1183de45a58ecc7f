/* Which CPU forms the image loops use (frames.c, resample.c). */
#ifndef EMUCORE_VECTOR_PATHS_H
#define EMUCORE_VECTOR_PATHS_H

/* Loops compiled twice, for AVX2 and for any x86-64, the form picked when the library loads. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define EMU_AVX2_FORMS 1
#include <immintrin.h>
#endif

/* Whether the hand-written AVX2 forms run: the CPU has AVX2 and tests have not turned them off. */
int emu_avx2_forms(void);
/* Turns them on (where the CPU has AVX2) or off; returns the previous setting. For tests. */
int emu_obs_vector_paths(int enabled);

#endif
