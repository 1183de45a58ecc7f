/* Observations built in C: the frames in between are never converted.
 *
 * The order is Stable-Baselines3's (MaxAndSkipEnv, then WarpFrame): the maximum of the last two
 * frames per RGB channel, then gray as OpenCV's COLOR_RGB2GRAY computes it for 8-bit pixels
 * (Y = (4899 R + 9617 G + 1868 B + 2^13) >> 14), then OpenCV's INTER_AREA resampling (resample.c).
 * Gray frames go a row at a time: RGB565 rows straight to gray in AVX2 registers, other rows
 * through r, g, b planes (which vectorize where packed RGB does not). A gray plan holds the frame
 * before as the core's own pixels.
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
    uint8_t *held_raw;    /* gray: the frame before as the core's pixels, crop_h rows held_pitch bytes apart */
    size_t held_pitch;    /* crop_w pixels of held_format: rows packed, the fewest cache lines */
    int held_format;
    unsigned held_cols, held_rows;
    uint8_t *row_planes;  /* gray: one row as r, g, b planes (crop_w each), then the held row's */
};

static inline uint8_t max_u8(uint8_t a, uint8_t b) { return a > b ? a : b; }

emu_obs *emu_obs_new(unsigned screen_w, unsigned screen_h, unsigned crop_x, unsigned crop_y, unsigned crop_w,
                     unsigned crop_h, unsigned out_w, unsigned out_h, int gray) {
    if (!crop_w || !crop_h || !out_w || !out_h || out_w > crop_w || out_h > crop_h) return NULL;
    emu_obs *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    *o = (emu_obs){.screen_w = screen_w, .screen_h = screen_h, .crop_x = crop_x, .crop_y = crop_y, .crop_w = crop_w,
                   .crop_h = crop_h, .out_w = out_w, .out_h = out_h, .gray = gray, .channels = gray ? 1u : 3u};
    size_t rgb = (size_t)crop_w * crop_h * 3;
    o->held = calloc(rgb, 1);
    o->rgb = malloc(rgb);
    o->pixels = gray ? malloc((size_t)crop_w * crop_h) : o->rgb;
    o->area = emu_area_new(crop_w, crop_h, out_w, out_h, o->channels);
    o->held_raw = malloc((size_t)crop_w * crop_h * 4);
    o->row_planes = malloc((size_t)crop_w * 6);
    if (!o->held || !o->rgb || !o->pixels || !o->area || !o->held_raw || !o->row_planes) {
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
    free(o->held_raw);
    free(o->row_planes);
    free(o);
}

/* How many columns of each crop row the frame has (the rest is black). */
static unsigned visible_columns(const emu_obs *o, const emu_host *h) {
    if (!h->frame || o->crop_x >= h->frame_width || o->crop_x >= o->screen_w) return 0;
    unsigned cols = h->frame_width - o->crop_x;
    if (cols > o->screen_w - o->crop_x) cols = o->screen_w - o->crop_x;
    return cols < o->crop_w ? cols : o->crop_w;
}

/* How many rows of the crop the frame has (the rest is black). */
static unsigned visible_rows(const emu_obs *o, const emu_host *h) {
    unsigned bottom = h->frame_height < o->screen_h ? h->frame_height : o->screen_h;
    if (!h->frame || o->crop_y >= bottom) return 0;
    return bottom - o->crop_y < o->crop_h ? bottom - o->crop_y : o->crop_h;
}

static const uint8_t *crop_row(const emu_obs *o, const emu_host *h, unsigned y) {
    return (const uint8_t *)h->frame + (size_t)(o->crop_y + y) * h->frame_pitch +
           (size_t)o->crop_x * (h->frame_format == 1 ? 4 : 2);
}

/* The crop of the screen as RGB; what the core did not render is black (as in get_screen). */
static void crop_rgb(const emu_obs *o, const emu_host *h, uint8_t *dst) {
    unsigned cols = visible_columns(o, h), rows = visible_rows(o, h);
    if (!cols || !rows) {
        memset(dst, 0, (size_t)o->crop_w * o->crop_h * 3);
        return;
    }
    emu_convert_pixels(crop_row(o, h, 0), cols, rows, h->frame_pitch, h->frame_format, dst, o->crop_w, o->crop_h);
}

/* cols pixels of a format as r, g, b planes (the same values as pixels.c's conversions), black to width. */
WIDE static void to_planes(const uint8_t *src, int format, unsigned cols, unsigned width, uint8_t *restrict r,
                           uint8_t *restrict g, uint8_t *restrict b) {
    if (cols && format == 1) {
        for (unsigned x = 0; x < cols; x++) {
            uint32_t v;
            memcpy(&v, src + 4 * x, 4);
            r[x] = (uint8_t)(v >> 16), g[x] = (uint8_t)(v >> 8), b[x] = (uint8_t)v;
        }
    } else if (cols) {
        uint16_t v[cols];
        memcpy(v, src, (size_t)cols * 2);
        if (format == 2) {
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
    memset(r + cols, 0, width - cols);
    memset(g + cols, 0, width - cols);
    memset(b + cols, 0, width - cols);
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

static inline uint8_t gray_of(unsigned r, unsigned g, unsigned b) {
    return (uint8_t)((r * 4899u + g * 9617u + b * 1868u + (1u << 13)) >> 14);
}

/* RGB565 pixels (their maximum with held ones, if held) straight to gray; the pixels done. */
static unsigned gray565(const uint8_t *cur, const uint8_t *held, uint8_t *out, unsigned from, unsigned n) {
    for (unsigned x = from; x < n; x++) {
        uint16_t v, u = 0;
        memcpy(&v, cur + 2 * x, 2);
        if (held) memcpy(&u, held + 2 * x, 2);
        unsigned r = (v & 0xF800) >> 8, g = (v & 0x07E0) >> 3, b = (v & 0x001F) << 3;
        unsigned hr = (u & 0xF800) >> 8, hg = (u & 0x07E0) >> 3, hb = (u & 0x001F) << 3;
        out[x] = gray_of(r > hr ? r : hr, g > hg ? g : hg, b > hb ? b : hb);
    }
    return n;
}

#ifdef EMU_AVX2_FORMS
/* 16 pixels a step: channels as 16-bit lanes, their maximum, gray by pmaddwd as gray_row_avx2. */
__attribute__((target("avx2"))) static unsigned gray565_avx2(const uint8_t *cur, const uint8_t *held, uint8_t *out,
                                                            unsigned n) {
    const __m256i red = _mm256_set1_epi16((short)0xF800), green = _mm256_set1_epi16(0x07E0);
    const __m256i blue = _mm256_set1_epi16(0x001F), ones = _mm256_set1_epi16(1);
    const __m256i rg_weights = _mm256_set1_epi32(4899 | (9617 << 16));
    const __m256i b1_weights = _mm256_set1_epi32(1868 | (1 << 13 << 16));
    unsigned x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(cur + 2 * x));
        __m256i r = _mm256_srli_epi16(_mm256_and_si256(v, red), 8);
        __m256i g = _mm256_srli_epi16(_mm256_and_si256(v, green), 3);
        __m256i b = _mm256_slli_epi16(_mm256_and_si256(v, blue), 3);
        if (held) {
            __m256i u = _mm256_loadu_si256((const __m256i *)(held + 2 * x));
            r = _mm256_max_epu16(r, _mm256_srli_epi16(_mm256_and_si256(u, red), 8));
            g = _mm256_max_epu16(g, _mm256_srli_epi16(_mm256_and_si256(u, green), 3));
            b = _mm256_max_epu16(b, _mm256_slli_epi16(_mm256_and_si256(u, blue), 3));
        }
        __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(r, g), rg_weights),
                                      _mm256_madd_epi16(_mm256_unpacklo_epi16(b, ones), b1_weights));
        __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(r, g), rg_weights),
                                      _mm256_madd_epi16(_mm256_unpackhi_epi16(b, ones), b1_weights));
        __m256i words = _mm256_packus_epi32(_mm256_srli_epi32(lo, 14), _mm256_srli_epi32(hi, 14));
        _mm_storeu_si128((__m128i *)(out + x),
                         _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
    }
    return gray565(cur, held, out, x, n);
}
#endif

/* XRGB8888 pixels (their maximum with held ones, if held) straight to gray; the pixels done. */
WIDE static unsigned gray8888(const uint8_t *cur, const uint8_t *held, uint8_t *out, unsigned from, unsigned n) {
    for (unsigned x = from; x < n; x++) {
        uint32_t v, u = 0;
        memcpy(&v, cur + 4 * x, 4);
        if (held) memcpy(&u, held + 4 * x, 4);
        unsigned r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF;
        unsigned hr = (u >> 16) & 0xFF, hg = (u >> 8) & 0xFF, hb = u & 0xFF;
        out[x] = gray_of(r > hr ? r : hr, g > hg ? g : hg, b > hb ? b : hb);
    }
    return n;
}

#ifdef EMU_AVX2_FORMS
/* Eight pixels' gray from their 32-bit lanes: (b, r) words times (1868, 4899) and (g, 1) words times
 * (9617, 2^13) by pmaddwd, then >> 14. */
__attribute__((target("avx2"))) static inline __m256i gray8888_lanes(__m256i v) {
    const __m256i br_weights = _mm256_set1_epi32(1868 | (4899 << 16));
    const __m256i g1_weights = _mm256_set1_epi32(9617 | (1 << 13 << 16));
    __m256i br = _mm256_and_si256(v, _mm256_set1_epi32(0x00FF00FF));
    __m256i g1 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(v, 8), _mm256_set1_epi32(0xFF)),
                                 _mm256_set1_epi32(0x10000));
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(br, br_weights), _mm256_madd_epi16(g1, g1_weights)),
                             14);
}

/* 32 pixels a step: the maximum of the bytes (each channel's), gray per 32-bit lane, packed in order. */
__attribute__((target("avx2"))) static unsigned gray8888_avx2(const uint8_t *cur, const uint8_t *held, uint8_t *out,
                                                             unsigned n) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    unsigned x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i v[4];
        for (unsigned i = 0; i < 4; i++) {
            v[i] = _mm256_loadu_si256((const __m256i *)(cur + 4 * x + 32 * i));
            if (held) v[i] = _mm256_max_epu8(v[i], _mm256_loadu_si256((const __m256i *)(held + 4 * x + 32 * i)));
            v[i] = gray8888_lanes(v[i]);
        }
        /* packs work per 128-bit lane: the dwords come out as 0 4 1 5 2 6 3 7 groups of four pixels */
        __m256i words01 = _mm256_packus_epi32(v[0], v[1]), words23 = _mm256_packus_epi32(v[2], v[3]);
        __m256i bytes = _mm256_packus_epi16(words01, words23);
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; x + 8 <= n; x += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(cur + 4 * x));
        if (held) v = _mm256_max_epu8(v, _mm256_loadu_si256((const __m256i *)(held + 4 * x)));
        __m256i words = _mm256_packus_epi32(gray8888_lanes(v), _mm256_setzero_si256());
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
        _mm_storel_epi64((__m128i *)(out + x), _mm_unpacklo_epi32(bytes, _mm_srli_si128(bytes, 8)));
    }
    return gray8888(cur, held, out, x, n);
}
#endif

/* Gray row y of the current frame (its maximum with the held one's if pool) into out. */
static void gray_row_of(emu_obs *o, const emu_host *h, int pool, unsigned y, unsigned cols, unsigned rows,
                        uint8_t *out) {
    unsigned w = o->crop_w;
    uint8_t *r = o->row_planes, *g = r + w, *b = g + w, *hr = b + w, *hg = hr + w, *hb = hg + w;
    unsigned seen = y < rows ? cols : 0, held_seen = pool && y < o->held_rows ? o->held_cols : 0;
    const uint8_t *cur = seen ? crop_row(o, h, y) : NULL;
    const uint8_t *held = held_seen ? o->held_raw + (size_t)y * o->held_pitch : NULL;
    if (h->frame_format == 2 && (!pool || (o->held_format == 2 && held_seen == seen))) {
        /* both black past `seen`, and gray of black is 0 */
#ifdef EMU_AVX2_FORMS
        if (emu_avx2_forms())
            gray565_avx2(cur, held, out, seen);
        else
#endif
            gray565(cur, held, out, 0, seen);
        memset(out + seen, 0, w - seen);
        return;
    }
    if (h->frame_format == 1 && (!pool || (o->held_format == 1 && held_seen == seen))) {
#ifdef EMU_AVX2_FORMS
        if (emu_avx2_forms())
            gray8888_avx2(cur, held, out, seen);
        else
#endif
            gray8888(cur, held, out, 0, seen);
        memset(out + seen, 0, w - seen);
        return;
    }
    to_planes(cur, h->frame_format, seen, w, r, g, b);
    if (pool) {
        to_planes(held, o->held_format, held_seen, w, hr, hg, hb);
        max_into(r, hr, w);
        max_into(g, hg, w);
        max_into(b, hb, w);
    }
    gray_row(r, g, b, out, w);
}

typedef struct { emu_obs *o; const emu_host *h; int pool; unsigned cols, rows; } gray_source;

#ifdef EMU_AVX2_FORMS

/* Sixteen RGB565 pixels (their maximum with sixteen held ones, if held) to gray as 32-bit lanes: pixels
 * 0-3 and 8-11 in lo, 4-7 and 12-15 in hi. With r5, g6, b5 the fields, r = 8 r5, g = 4 g6 and b = 8 b5,
 * so (4899 r + 9617 g + 1868 b + 2^13) >> 14 = (9798 r5 + 9617 g6 + 3736 b5 + 2^11) >> 12. */
__attribute__((target("avx2"))) static inline void gray565_lanes(const uint8_t *cur, const uint8_t *held, __m256i *lo,
                                                                __m256i *hi) {
    const __m256i six = _mm256_set1_epi16(0x3F), five = _mm256_set1_epi16(0x1F), ones = _mm256_set1_epi16(1);
    const __m256i rg_weights = _mm256_set1_epi32(9798 | (9617 << 16));
    const __m256i b1_weights = _mm256_set1_epi32(3736 | (1 << 11 << 16));
    __m256i v = _mm256_loadu_si256((const __m256i *)cur);
    __m256i r = _mm256_srli_epi16(v, 11), g = _mm256_and_si256(_mm256_srli_epi16(v, 5), six);
    __m256i b = _mm256_and_si256(v, five);
    if (held) {
        __m256i u = _mm256_loadu_si256((const __m256i *)held);
        r = _mm256_max_epu16(r, _mm256_srli_epi16(u, 11));
        g = _mm256_max_epu16(g, _mm256_and_si256(_mm256_srli_epi16(u, 5), six));
        b = _mm256_max_epu16(b, _mm256_and_si256(u, five));
    }
    *lo = _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(r, g), rg_weights),
                                             _mm256_madd_epi16(_mm256_unpacklo_epi16(b, ones), b1_weights)),
                            12);
    *hi = _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(r, g), rg_weights),
                                             _mm256_madd_epi16(_mm256_unpackhi_epi16(b, ones), b1_weights)),
                            12);
}

/* Eight rows' gray as the resampler's tile, straight from whole frames of the crop's size in RGB565 or
 * XRGB8888 (the held one of the same format): no gray bytes, no byte transpose. */
__attribute__((target("avx2"))) static void gray_tile_avx2(void *context, unsigned first, unsigned count,
                                                          float *tile) {
    gray_source *s = context;
    emu_obs *o = s->o;
    unsigned w = o->crop_w, x = 0;
    const uint8_t *cur[8], *held[8];
    for (unsigned r = 0; r < 8; r++) {
        unsigned y = first + (r < count ? r : count - 1);
        cur[r] = crop_row(o, s->h, y);
        held[r] = s->pool ? o->held_raw + (size_t)y * o->held_pitch : NULL;
    }
    __m256 v[8], t[8];
    if (s->h->frame_format == 1) {
        for (; x + 8 <= w; x += 8) {
            for (unsigned r = 0; r < 8; r++) {
                __m256i p = _mm256_loadu_si256((const __m256i *)(cur[r] + 4 * x));
                if (held[r]) p = _mm256_max_epu8(p, _mm256_loadu_si256((const __m256i *)(held[r] + 4 * x)));
                v[r] = _mm256_cvtepi32_ps(gray8888_lanes(p));
            }
            emu_transpose8(v, t);
            for (unsigned c = 0; c < 8; c++) _mm256_store_ps(tile + 8 * (x + c), t[c]);
        }
        for (; x < w; x++)
            for (unsigned r = 0; r < 8; r++) {
                uint8_t g[8];
                gray8888(cur[r] + 4 * x, held[r] ? held[r] + 4 * x : NULL, g, 0, 1);
                tile[8 * x + r] = g[0];
            }
    } else {
        __m256 v2[8], t2[8];
        for (; x + 16 <= w; x += 16) {
            for (unsigned r = 0; r < 8; r++) {
                __m256i lo, hi;
                gray565_lanes(cur[r] + 2 * x, held[r] ? held[r] + 2 * x : NULL, &lo, &hi);
                v[r] = _mm256_cvtepi32_ps(lo);
                v2[r] = _mm256_cvtepi32_ps(hi);
            }
            emu_transpose8(v, t);   /* columns 0-3, 8-11 */
            emu_transpose8(v2, t2); /* columns 4-7, 12-15 */
            for (unsigned c = 0; c < 4; c++) {
                _mm256_store_ps(tile + 8 * (x + c), t[c]);
                _mm256_store_ps(tile + 8 * (x + 8 + c), t[4 + c]);
                _mm256_store_ps(tile + 8 * (x + 4 + c), t2[c]);
                _mm256_store_ps(tile + 8 * (x + 12 + c), t2[4 + c]);
            }
        }
        for (; x < w; x++)
            for (unsigned r = 0; r < 8; r++) {
                uint8_t g[8];
                gray565(cur[r] + 2 * x, held[r] ? held[r] + 2 * x : NULL, g, 0, 1);
                tile[8 * x + r] = g[0];
            }
    }
}
#endif

/* The resampler's rows, made as it asks for them into eight rows of o->pixels. */
static const uint8_t *gray_row_for(void *context, unsigned y) {
    gray_source *s = context;
    uint8_t *out = s->o->pixels + (size_t)(y % 8) * s->o->crop_w;
    gray_row_of(s->o, s->h, s->pool, y, s->cols, s->rows, out);
    return out;
}

/* Gray: the whole frame (pooled if pool) into o->pixels. */
static void gray_rows(emu_obs *o, const emu_host *h, int pool) {
    unsigned cols = visible_columns(o, h), rows = visible_rows(o, h);
    for (unsigned y = 0; y < o->crop_h; y++) gray_row_of(o, h, pool, y, cols, rows, o->pixels + (size_t)y * o->crop_w);
}

void emu_obs_hold(const emu_host *h, emu_obs *o) {
    if (!o->gray) {
        crop_rgb(o, h, o->held);
        return;
    }
    o->held_format = h->frame_format;
    o->held_cols = visible_columns(o, h);
    o->held_rows = visible_rows(o, h);
    size_t bytes = (size_t)o->held_cols * (h->frame_format == 1 ? 4 : 2);
    o->held_pitch = (size_t)o->crop_w * (h->frame_format == 1 ? 4 : 2);
    for (unsigned y = 0; y < o->held_rows; y++) memcpy(o->held_raw + (size_t)y * o->held_pitch, crop_row(o, h, y), bytes);
}

static void pool_rgb(emu_obs *o) {
    size_t count = (size_t)o->crop_w * o->crop_h * 3;
    uint8_t *restrict rgb = o->rgb;
    const uint8_t *restrict held = o->held;
    for (size_t i = 0; i < count; i++) rgb[i] = max_u8(rgb[i], held[i]);
}

void emu_obs_build(const emu_host *h, emu_obs *o, int pool, uint8_t *dst) {
    if (o->gray && emu_area_streams(o->area)) { /* gray rows made as the resampler asks: no whole image */
        gray_source source = {o, h, pool, visible_columns(o, h), visible_rows(o, h)};
#ifdef EMU_AVX2_FORMS
        int format = h->frame_format, whole = source.cols == o->crop_w && source.rows == o->crop_h;
        if (emu_avx2_forms() && (format == 1 || format == 2) && whole &&
            (!pool || (o->held_format == format && o->held_cols == o->crop_w && o->held_rows == o->crop_h))) {
            emu_area_resize_tiles(o->area, gray_tile_avx2, &source, dst);
            return;
        }
#endif
        emu_area_resize_rows(o->area, gray_row_for, &source, dst);
        return;
    }
    if (o->gray) {
        gray_rows(o, h, pool);
    } else {
        crop_rgb(o, h, o->rgb);
        if (pool) pool_rgb(o);
    }
    emu_area_resize(o->area, o->pixels, dst);
}
