/* Pixels: a core's frame to packed RGB888.
 *
 * stable-retro's conversions, bit-exact: the low bits are not replicated (RGB565 max is 248/252/248).
 * The per-pixel scalar form is the reference; the SSSE3 forms do 8 (RGB565) or 4 (XRGB8888) pixels
 * per step with byte shuffles, the AVX2 form 16 (RGB565), the AVX-512 VBMI forms 32 (RGB565) or
 * 16 (XRGB8888) with byte permutes; the widest the CPU has is picked at run time. */
#include <string.h>

#include "host.h"

static inline void rgb565_pixel(uint16_t v, uint8_t *out) {
    out[0] = (uint8_t)((v & 0xF800) >> 8);
    out[1] = (uint8_t)((v & 0x07E0) >> 3);
    out[2] = (uint8_t)((v & 0x001F) << 3);
}

static void rgb565_row_scalar(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        uint16_t v;
        memcpy(&v, src + 2 * x, 2);
        rgb565_pixel(v, out + 3 * x);
    }
}

static void xrgb8888_row_scalar(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        out[3 * x] = src[4 * x + 2];
        out[3 * x + 1] = src[4 * x + 1];
        out[3 * x + 2] = src[4 * x];
    }
}

static void rgb1555_row(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        uint16_t v;
        memcpy(&v, src + 2 * x, 2);
        out[3 * x] = (uint8_t)((v & 0x7C00) >> 7);
        out[3 * x + 1] = (uint8_t)((v & 0x03E0) >> 2);
        out[3 * x + 2] = (uint8_t)((v & 0x001F) << 3);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define EMU_HAVE_SSSE3_PATH 1

__attribute__((target("ssse3"))) static void rgb565_row_ssse3(const uint8_t *src, unsigned count,
                                                                uint8_t *out) {
    const __m128i red_mask = _mm_set1_epi16((short)0xF800);
    const __m128i green_mask = _mm_set1_epi16(0x07E0);
    const __m128i blue_mask = _mm_set1_epi16(0x001F);
    /* rg holds r0 g0 r1 g1 ... r7 g7; bb holds b0..b7 twice. */
    const __m128i rg_lo = _mm_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10);
    const __m128i bb_lo = _mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
    const __m128i rg_hi = _mm_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i bb_hi = _mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 8 <= count; x += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + 2 * x));
        __m128i r = _mm_srli_epi16(_mm_and_si128(v, red_mask), 8);
        __m128i g = _mm_srli_epi16(_mm_and_si128(v, green_mask), 3);
        __m128i b = _mm_slli_epi16(_mm_and_si128(v, blue_mask), 3);
        __m128i rg = _mm_or_si128(r, _mm_slli_epi16(g, 8));
        __m128i bb = _mm_packus_epi16(b, b);
        __m128i lo = _mm_or_si128(_mm_shuffle_epi8(rg, rg_lo), _mm_shuffle_epi8(bb, bb_lo));
        __m128i hi = _mm_or_si128(_mm_shuffle_epi8(rg, rg_hi), _mm_shuffle_epi8(bb, bb_hi));
        _mm_storeu_si128((__m128i *)(out + 3 * x), lo);
        _mm_storel_epi64((__m128i *)(out + 3 * x + 16), hi);
    }
    rgb565_row_scalar(src + 2 * x, count - x, out + 3 * x);
}

/* The SSSE3 form on both 128-bit lanes: 16 pixels a step. */
__attribute__((target("avx2"))) static void rgb565_row_avx2(const uint8_t *src, unsigned count, uint8_t *out) {
    const __m256i red_mask = _mm256_set1_epi16((short)0xF800);
    const __m256i green_mask = _mm256_set1_epi16(0x07E0);
    const __m256i blue_mask = _mm256_set1_epi16(0x001F);
    const __m256i rg_lo = _mm256_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10, 0, 1, -1, 2, 3, -1, 4,
                                           5, -1, 6, 7, -1, 8, 9, -1, 10);
    const __m256i bb_lo = _mm256_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1, -1, -1, 0, -1,
                                           -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
    const __m256i rg_hi = _mm256_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, 11, -1, 12,
                                           13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i bb_hi = _mm256_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5, -1, -1,
                                           6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + 2 * x));
        __m256i r = _mm256_srli_epi16(_mm256_and_si256(v, red_mask), 8);
        __m256i g = _mm256_srli_epi16(_mm256_and_si256(v, green_mask), 3);
        __m256i b = _mm256_slli_epi16(_mm256_and_si256(v, blue_mask), 3);
        __m256i rg = _mm256_or_si256(r, _mm256_slli_epi16(g, 8));
        __m256i bb = _mm256_packus_epi16(b, b);
        __m256i lo = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_lo), _mm256_shuffle_epi8(bb, bb_lo));
        __m256i hi = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_hi), _mm256_shuffle_epi8(bb, bb_hi));
        uint8_t *o = out + 3 * x;
        _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(lo));
        _mm_storel_epi64((__m128i *)(o + 16), _mm256_castsi256_si128(hi));
        _mm_storeu_si128((__m128i *)(o + 24), _mm256_extracti128_si256(lo, 1));
        _mm_storel_epi64((__m128i *)(o + 40), _mm256_extracti128_si256(hi, 1));
    }
    rgb565_row_ssse3(src + 2 * x, count - x, out + 3 * x);
}

/* AVX-512 VBMI: 32 pixels a step. Red and green are packed as 16-bit pairs, blue in the low byte of
 * its own 16 bits; one two-table byte permute per 64 output bytes lays out r g b r g b ...: output
 * byte k is pixel k / 3's red (2 * pixel), green (2 * pixel + 1) or blue (64 + 2 * pixel). */
static const uint8_t rgb565_vbmi_index[128] = {
    0, 1, 64, 2, 3, 66, 4, 5, 68, 6, 7, 70, 8, 9, 72, 10,
    11, 74, 12, 13, 76, 14, 15, 78, 16, 17, 80, 18, 19, 82, 20, 21,
    84, 22, 23, 86, 24, 25, 88, 26, 27, 90, 28, 29, 92, 30, 31, 94,
    32, 33, 96, 34, 35, 98, 36, 37, 100, 38, 39, 102, 40, 41, 104, 42,
    43, 106, 44, 45, 108, 46, 47, 110, 48, 49, 112, 50, 51, 114, 52, 53,
    116, 54, 55, 118, 56, 57, 120, 58, 59, 122, 60, 61, 124, 62, 63, 126,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static void rgb565_row_vbmi(const uint8_t *src,
                                                                                  unsigned count, uint8_t *out) {
    const __m512i red_mask = _mm512_set1_epi16((short)0xF800);
    const __m512i green_mask = _mm512_set1_epi16(0x07E0);
    const __m512i blue_mask = _mm512_set1_epi16(0x001F);
    const __m512i first = _mm512_loadu_si512((const void *)rgb565_vbmi_index);
    const __m512i second = _mm512_loadu_si512((const void *)(rgb565_vbmi_index + 64));
    unsigned x = 0;
    for (; x + 32 <= count; x += 32) {
        __m512i v = _mm512_loadu_si512((const void *)(src + 2 * x));
        __m512i r = _mm512_srli_epi16(_mm512_and_si512(v, red_mask), 8);
        __m512i g = _mm512_srli_epi16(_mm512_and_si512(v, green_mask), 3);
        __m512i b = _mm512_slli_epi16(_mm512_and_si512(v, blue_mask), 3);
        __m512i rg = _mm512_or_si512(r, _mm512_slli_epi16(g, 8));
        uint8_t *o = out + 3 * x;
        _mm512_storeu_si512((void *)o, _mm512_permutex2var_epi8(rg, first, b));
        _mm256_storeu_si256((__m256i *)(o + 64), _mm512_castsi512_si256(_mm512_permutex2var_epi8(rg, second, b)));
    }
    rgb565_row_avx2(src + 2 * x, count - x, out + 3 * x);
}

__attribute__((target("ssse3"))) static void xrgb8888_row_ssse3(const uint8_t *src, unsigned count,
                                                                  uint8_t *out) {
    const __m128i drop_x = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 6 <= count; x += 4) { /* the 16-byte store writes 4 bytes ahead: keep them in the row */
        __m128i v = _mm_loadu_si128((const __m128i *)(src + 4 * x));
        _mm_storeu_si128((__m128i *)(out + 3 * x), _mm_shuffle_epi8(v, drop_x));
    }
    xrgb8888_row_scalar(src + 4 * x, count - x, out + 3 * x);
}

/* XRGB8888 with one byte permute: 16 pixels (64 bytes) in, 48 bytes out. */
static const uint8_t xrgb8888_vbmi_index[64] = {
    2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 18, 17, 16, 22,
    21, 20, 26, 25, 24, 30, 29, 28, 34, 33, 32, 38, 37, 36, 42, 41,
    40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static void xrgb8888_row_vbmi(const uint8_t *src,
                                                                                    unsigned count, uint8_t *out) {
    const __m512i drop_x = _mm512_loadu_si512((const void *)xrgb8888_vbmi_index);
    unsigned x = 0;
    for (; x + 16 <= count; x += 16) {
        __m512i v = _mm512_loadu_si512((const void *)(src + 4 * x));
        _mm512_mask_storeu_epi8((void *)(out + 3 * x), 0xFFFFFFFFFFFFull, _mm512_permutexvar_epi8(drop_x, v));
    }
    xrgb8888_row_ssse3(src + 4 * x, count - x, out + 3 * x);
}
#endif

typedef void (*row_converter)(const uint8_t *, unsigned, uint8_t *);

static row_converter row_converter_for(int format) {
#ifdef EMU_HAVE_SSSE3_PATH
    static int ssse3 = -1, avx2 = -1, vbmi = -1;
    if (ssse3 < 0) ssse3 = __builtin_cpu_supports("ssse3") ? 1 : 0;
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (vbmi < 0) vbmi = avx2 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") ? 1 : 0;
    if (vbmi && format == 2) return rgb565_row_vbmi;
    if (vbmi && format == 1) return xrgb8888_row_vbmi;
    if (avx2 && format == 2) return rgb565_row_avx2;
    if (ssse3 && format == 2) return rgb565_row_ssse3;
    if (ssse3 && format == 1) return xrgb8888_row_ssse3;
#endif
    if (format == 2) return rgb565_row_scalar;
    if (format == 1) return xrgb8888_row_scalar;
    return rgb1555_row;
}

void emu_convert_pixels(const void *src, unsigned src_width, unsigned src_height, size_t pitch,
                        int format, uint8_t *dst, unsigned width, unsigned height) {
    row_converter convert = row_converter_for(format);
    unsigned cols = src_width < width ? src_width : width;
    unsigned rows = src_height < height ? src_height : height;
    size_t dst_row = (size_t)width * 3u;
    for (unsigned y = 0; y < rows; y++) {
        uint8_t *out = dst + y * dst_row;
        convert((const uint8_t *)src + y * pitch, cols, out);
        if (cols < width) memset(out + cols * 3u, 0, (width - cols) * 3u);
    }
    if (rows < height) memset(dst + rows * dst_row, 0, (height - rows) * dst_row);
}

int emu_convert_frame(const emu_host *h, uint8_t *dst, unsigned width, unsigned height) {
    if (!h || !h->frame) {
        memset(dst, 0, (size_t)width * height * 3u);
        return -1;
    }
    emu_convert_pixels(h->frame, h->frame_width, h->frame_height, h->frame_pitch, h->frame_format,
                       dst, width, height);
    return 0;
}
