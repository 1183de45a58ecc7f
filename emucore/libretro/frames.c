/* Observations built in C: the frames in between are never converted.
 *
 * The order is Stable-Baselines3's (MaxAndSkipEnv, then WarpFrame): the maximum of the last two
 * frames per RGB channel, then gray as OpenCV's COLOR_RGB2GRAY computes it for 8-bit pixels
 * (Y = (4899 R + 9617 G + 1868 B + 2^13) >> 14), then OpenCV's INTER_AREA resampling (resample.c).
 * Gray frames go a row at a time through r, g, b planes, which vectorize where packed RGB does not.
 */
#pragma GCC optimize("O3") /* the loops below vectorize at O3, not at the build's O2 */
#include "frames.h"

#include <stdlib.h>
#include <string.h>

#include "resample.h"
#include "vector_paths.h"

struct emu_obs {
    unsigned screen_w, screen_h, crop_x, crop_y, crop_w, crop_h, out_w, out_h;
    int gray;
    unsigned channels;    /* of the output: 1 or 3 */
    uint8_t *held;        /* the frame before, RGB crop */
    uint8_t *rgb;         /* the current frame, RGB crop */
    uint8_t *pixels;      /* pooled and grayed, before resampling: crop_h x crop_w x channels */
    emu_area *area;       /* the resampling to out_w x out_h */
    uint8_t *held_planes; /* gray: the frame before as r, g, b planes, crop_h x crop_w each */
    uint8_t *row_planes;  /* gray: one row of the current frame as r, g, b, crop_w each */
};

static inline uint8_t max_u8(uint8_t a, uint8_t b) { return a > b ? a : b; }

emu_obs *emu_obs_new(unsigned screen_w, unsigned screen_h, unsigned crop_x, unsigned crop_y, unsigned crop_w,
                     unsigned crop_h, unsigned out_w, unsigned out_h, int gray) {
    if (!crop_w || !crop_h || !out_w || !out_h || out_w > crop_w || out_h > crop_h) return NULL;
    emu_obs *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    *o = (emu_obs){screen_w, screen_h, crop_x, crop_y, crop_w, crop_h, out_w, out_h, gray, gray ? 1u : 3u};
    size_t rgb = (size_t)crop_w * crop_h * 3;
    o->held = calloc(rgb, 1);
    o->rgb = malloc(rgb);
    o->pixels = gray ? malloc((size_t)crop_w * crop_h) : o->rgb;
    o->area = emu_area_new(crop_w, crop_h, out_w, out_h, o->channels);
    o->held_planes = calloc((size_t)crop_w * crop_h * 3, 1);
    o->row_planes = malloc((size_t)crop_w * 3);
    if (!o->held || !o->rgb || !o->pixels || !o->area || !o->held_planes || !o->row_planes) {
        emu_obs_free(o);
        return NULL;
    }
    return o;
}

void emu_obs_free(emu_obs *o) {
    if (!o) return;
    if (o->pixels != o->rgb) free(o->pixels);
    free(o->held);
    free(o->rgb);
    emu_area_free(o->area);
    free(o->held_planes);
    free(o->row_planes);
    free(o);
}

/* The crop of the screen as RGB; what the core did not render is black (as in get_screen). */
static void crop_rgb(const emu_obs *o, const emu_host *h, uint8_t *dst) {
    if (!h->frame || o->crop_x >= h->frame_width || o->crop_y >= h->frame_height) {
        memset(dst, 0, (size_t)o->crop_w * o->crop_h * 3);
        return;
    }
    size_t bytes_per_pixel = h->frame_format == 1 ? 4 : 2;
    const uint8_t *origin = (const uint8_t *)h->frame + o->crop_y * h->frame_pitch + o->crop_x * bytes_per_pixel;
    unsigned width = h->frame_width - o->crop_x, height = h->frame_height - o->crop_y;
    /* the screen's own size bounds the crop too: beyond it, stable-retro's screen has nothing */
    unsigned screen_w = o->screen_w > o->crop_x ? o->screen_w - o->crop_x : 0;
    unsigned screen_h = o->screen_h > o->crop_y ? o->screen_h - o->crop_y : 0;
    emu_convert_pixels(origin, width < screen_w ? width : screen_w, height < screen_h ? height : screen_h,
                       h->frame_pitch, h->frame_format, dst, o->crop_w, o->crop_h);
}

/* How many columns of each crop row the frame has (the rest is black), and whether row y has any. */
static unsigned visible_columns(const emu_obs *o, const emu_host *h) {
    if (!h->frame || o->crop_x >= h->frame_width || o->crop_x >= o->screen_w) return 0;
    unsigned cols = h->frame_width - o->crop_x;
    if (cols > o->screen_w - o->crop_x) cols = o->screen_w - o->crop_x;
    return cols < o->crop_w ? cols : o->crop_w;
}

static int row_visible(const emu_obs *o, const emu_host *h, unsigned y) {
    return o->crop_y + y < h->frame_height && o->crop_y + y < o->screen_h;
}

/* Row y of the crop as r, g, b planes (the same values as host.c's RGB conversions): planes
 * vectorize where packed RGB does not. */
WIDE static void row_to_planes(const emu_obs *o, const emu_host *h, unsigned y, unsigned cols, uint8_t *restrict r,
                          uint8_t *restrict g, uint8_t *restrict b) {
    if (!row_visible(o, h, y)) cols = 0;
    if (cols) {
        const uint8_t *row = (const uint8_t *)h->frame + (size_t)(o->crop_y + y) * h->frame_pitch;
        if (h->frame_format == 1) {
            const uint8_t *src = row + (size_t)o->crop_x * 4;
            for (unsigned x = 0; x < cols; x++) {
                uint32_t v;
                memcpy(&v, src + 4 * x, 4);
                r[x] = (uint8_t)(v >> 16), g[x] = (uint8_t)(v >> 8), b[x] = (uint8_t)v;
            }
        } else {
            const uint8_t *src = row + (size_t)o->crop_x * 2;
            uint16_t v[cols];
            memcpy(v, src, (size_t)cols * 2);
            if (h->frame_format == 2) {
                for (unsigned x = 0; x < cols; x++) {
                    r[x] = (uint8_t)((v[x] & 0xF800) >> 8);
                    g[x] = (uint8_t)((v[x] & 0x07E0) >> 3);
                    b[x] = (uint8_t)((v[x] & 0x001F) << 3);
                }
            } else {
                for (unsigned x = 0; x < cols; x++) {
                    r[x] = (uint8_t)((v[x] & 0x7C00) >> 7);
                    g[x] = (uint8_t)((v[x] & 0x03E0) >> 2);
                    b[x] = (uint8_t)((v[x] & 0x001F) << 3);
                }
            }
        }
    }
    memset(r + cols, 0, o->crop_w - cols);
    memset(g + cols, 0, o->crop_w - cols);
    memset(b + cols, 0, o->crop_w - cols);
}

WIDE static void max_into(uint8_t *restrict a, const uint8_t *restrict b, unsigned n) {
    for (unsigned x = 0; x < n; x++) a[x] = max_u8(a[x], b[x]);
}

static void gray_row_scalar(const uint8_t *restrict r, const uint8_t *restrict g, const uint8_t *restrict b,
                            uint8_t *restrict out, unsigned from, unsigned n) {
    for (unsigned x = from; x < n; x++)
        out[x] = (uint8_t)((r[x] * 4899u + g[x] * 9617u + b[x] * 1868u + (1u << 13)) >> 14);
}

#ifdef EMU_AVX2_FORMS
/* 16 pixels a step: (r, g) and (b, 1) pairs times (4899, 9617) and (1868, 2^13) by pmaddwd. */
__attribute__((target("avx2"))) static void gray_row_avx2(const uint8_t *r, const uint8_t *g, const uint8_t *b,
                                                         uint8_t *out, unsigned n) {
    const __m256i rg_weights = _mm256_set1_epi32(4899 | (9617 << 16));
    const __m256i b1_weights = _mm256_set1_epi32(1868 | (1 << 13 << 16));
    const __m256i ones = _mm256_set1_epi16(1);
    unsigned x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i r16 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r + x)));
        __m256i g16 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(g + x)));
        __m256i b16 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(b + x)));
        __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(r16, g16), rg_weights),
                                      _mm256_madd_epi16(_mm256_unpacklo_epi16(b16, ones), b1_weights));
        __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(r16, g16), rg_weights),
                                      _mm256_madd_epi16(_mm256_unpackhi_epi16(b16, ones), b1_weights));
        __m256i words = _mm256_packus_epi32(_mm256_srli_epi32(lo, 14), _mm256_srli_epi32(hi, 14)); /* in order */
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
        _mm_storeu_si128((__m128i *)(out + x), bytes);
    }
    gray_row_scalar(r, g, b, out, x, n);
}
#endif

static void gray_row(const uint8_t *r, const uint8_t *g, const uint8_t *b, uint8_t *out, unsigned n) {
#ifdef EMU_AVX2_FORMS
    if (emu_avx2_forms()) {
        gray_row_avx2(r, g, b, out, n);
        return;
    }
#endif
    gray_row_scalar(r, g, b, out, 0, n);
}

/* Gray: the current frame (its maximum with the held one if pool) into o->pixels, a row at a time. */
static void gray_from_planes(emu_obs *o, const emu_host *h, int pool) {
    unsigned w = o->crop_w, cols = visible_columns(o, h);
    size_t plane = (size_t)w * o->crop_h;
    uint8_t *restrict r = o->row_planes, *restrict g = r + w, *restrict b = g + w;
    for (unsigned y = 0; y < o->crop_h; y++) {
        row_to_planes(o, h, y, cols, r, g, b);
        if (pool) {
            const uint8_t *held = o->held_planes + (size_t)y * w;
            max_into(r, held, w);
            max_into(g, held + plane, w);
            max_into(b, held + 2 * plane, w);
        }
        gray_row(r, g, b, o->pixels + (size_t)y * w, w);
    }
}

void emu_obs_hold(const emu_host *h, emu_obs *o) {
    if (!o->gray) {
        crop_rgb(o, h, o->held);
        return;
    }
    unsigned cols = visible_columns(o, h);
    size_t plane = (size_t)o->crop_w * o->crop_h;
    for (unsigned y = 0; y < o->crop_h; y++) {
        uint8_t *r = o->held_planes + (size_t)y * o->crop_w;
        row_to_planes(o, h, y, cols, r, r + plane, r + 2 * plane);
    }
}

static void pool_rgb(emu_obs *o) {
    size_t count = (size_t)o->crop_w * o->crop_h * 3;
    uint8_t *restrict rgb = o->rgb;
    const uint8_t *restrict held = o->held;
    for (size_t i = 0; i < count; i++) rgb[i] = max_u8(rgb[i], held[i]);
}

void emu_obs_build(const emu_host *h, emu_obs *o, int pool, uint8_t *dst) {
    if (o->gray) {
        gray_from_planes(o, h, pool);
    } else {
        crop_rgb(o, h, o->rgb);
        if (pool) pool_rgb(o);
    }
    emu_area_resize(o->area, o->pixels, dst);
}
