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

/* out[c] lane i = v[i] lane c: an 8x8 float transpose (frames.c, resample.c). */
__attribute__((target("avx2"))) static inline void emu_transpose8(const __m256 *v, __m256 *out) {
    __m256 t[8], u[8];
    for (unsigned i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(v[i], v[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(v[i], v[i + 1]);
    }
    for (unsigned i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (unsigned c = 0; c < 8; c++) out[c] = _mm256_permute2f128_ps(u[c % 4], u[4 + c % 4], c < 4 ? 0x20 : 0x31);
}
#endif

/* Whether the hand-written AVX2 forms run: the CPU has AVX2 and tests have not turned them off. */
int emu_avx2_forms(void);
/* cdef: begin */
/* Turns them on (where the CPU has AVX2) or off; returns the previous setting. For tests. */
int emu_obs_vector_paths(int enabled);
/* cdef: end */

#endif
