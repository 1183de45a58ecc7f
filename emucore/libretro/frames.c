/* Observations built in C: the frames in between are never converted.
 *
 * The order is Stable-Baselines3's (MaxAndSkipEnv, then WarpFrame): the maximum of the last two
 * frames per RGB channel, then gray as OpenCV's COLOR_RGB2GRAY computes it for 8-bit pixels
 * (Y = (4899 R + 9617 G + 1868 B + 2^13) >> 14), then area resampling with OpenCV's INTER_AREA
 * weights and order of float sums (computeResizeAreaTab, ResizeArea_Invoker), rounded to nearest even.
 */
#pragma GCC optimize("O3") /* the loops below vectorize at O3, not at the build's O2 */
#include "frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the hot loops are compiled twice, for AVX2 and for any x86-64, and picked when the library loads */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

static int avx2 = -1;

static int have_avx2(void) {
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    return avx2;
}
#endif

int emu_obs_vector_paths(int enabled) {
#if defined(__x86_64__) && defined(__GNUC__)
    int was = have_avx2();
    avx2 = enabled && __builtin_cpu_supports("avx2");
    return was;
#else
    return 0;
#endif
}

#define ROWS_AT_ONCE 8
typedef float rows_vector __attribute__((vector_size(ROWS_AT_ONCE * sizeof(float))));

typedef struct { unsigned src, dst; float alpha; } area_weight;

struct emu_obs {
    unsigned screen_w, screen_h, crop_x, crop_y, crop_w, crop_h, out_w, out_h;
    int gray;
    unsigned channels;    /* of the output: 1 or 3 */
    uint8_t *held;        /* the frame before, RGB crop */
    uint8_t *rgb;         /* the current frame, RGB crop */
    uint8_t *pixels;      /* pooled and grayed, before resampling: crop_h x crop_w x channels */
    area_weight *xtab, *ytab;
    unsigned xtab_size, ytab_size;
    float *buf, *sum;     /* one output row of sums, x channels */
    rows_vector *rows;    /* gray: every source row's horizontal sums, [crop_h / 8][out_w][8] */
    unsigned *pad_src;    /* gray: xtab as per_dx entries for each dx (padded with weight 0) */
    float *pad_alpha;
    unsigned per_dx;
    uint8_t *held_planes; /* gray: the frame before as r, g, b planes, crop_h x crop_w each */
    uint8_t *row_planes;  /* gray: one row of the current frame as r, g, b, crop_w each */
    float *tile;          /* gray: ROWS_AT_ONCE rows side by side, crop_w x ROWS_AT_ONCE */
};

static inline uint8_t max_u8(uint8_t a, uint8_t b) { return a > b ? a : b; }

/* OpenCV's computeResizeAreaTab: which source cells each destination cell covers, and how much. */
static unsigned area_table(unsigned ssize, unsigned dsize, unsigned cn, area_weight *tab) {
    double scale = (double)ssize / dsize;
    unsigned k = 0;
    for (unsigned dx = 0; dx < dsize; dx++) {
        double fsx1 = dx * scale, fsx2 = fsx1 + scale;
        double cell = scale < ssize - fsx1 ? scale : ssize - fsx1;
        int sx1 = (int)ceil(fsx1), sx2 = (int)floor(fsx2);
        if (sx2 > (int)ssize - 1) sx2 = (int)ssize - 1;
        if (sx1 > sx2) sx1 = sx2;
        if (sx1 - fsx1 > 1e-3) tab[k++] = (area_weight){(unsigned)(sx1 - 1) * cn, dx * cn, (float)((sx1 - fsx1) / cell)};
        for (int sx = sx1; sx < sx2; sx++) tab[k++] = (area_weight){(unsigned)sx * cn, dx * cn, (float)(1.0 / cell)};
        if (fsx2 - sx2 > 1e-3) {
            double part = fsx2 - sx2 < 1.0 ? fsx2 - sx2 : 1.0;
            tab[k++] = (area_weight){(unsigned)sx2 * cn, dx * cn, (float)((part < cell ? part : cell) / cell)};
        }
    }
    return k;
}

/* xtab with the same number of entries for every dx, the missing ones weighing 0 at the end: adding
 * +0 to a sum of non-negative terms changes nothing, and a fixed count has no branch to mispredict. */
static int pad_table(emu_obs *o) {
    unsigned most = 0, count = 0;
    for (unsigned k = 0; k < o->xtab_size; k++) {
        count = k && o->xtab[k].dst == o->xtab[k - 1].dst ? count + 1 : 1;
        if (count > most) most = count;
    }
    o->per_dx = most;
    o->pad_src = calloc((size_t)o->out_w * most, sizeof *o->pad_src);
    o->pad_alpha = calloc((size_t)o->out_w * most, sizeof *o->pad_alpha);
    if (!o->pad_src || !o->pad_alpha) return 0;
    unsigned filled = 0;
    for (unsigned k = 0; k < o->xtab_size; k++) {
        unsigned dx = o->xtab[k].dst;
        filled = k && dx == o->xtab[k - 1].dst ? filled + 1 : 0;
        o->pad_src[dx * most + filled] = o->xtab[k].src;
        o->pad_alpha[dx * most + filled] = o->xtab[k].alpha;
    }
    return 1;
}

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
    o->xtab = malloc(sizeof(area_weight) * (crop_w + 2 * out_w));
    o->ytab = malloc(sizeof(area_weight) * (crop_h + 2 * out_h));
    o->buf = malloc(sizeof(float) * out_w * o->channels);
    o->sum = malloc(sizeof(float) * out_w * o->channels);
    unsigned blocks = (crop_h + ROWS_AT_ONCE - 1) / ROWS_AT_ONCE;
    o->rows = aligned_alloc(sizeof(rows_vector), sizeof(rows_vector) * out_w * blocks);
    o->held_planes = calloc((size_t)crop_w * crop_h * 3, 1);
    o->row_planes = malloc((size_t)crop_w * 3);
    o->tile = aligned_alloc(sizeof(rows_vector), sizeof(rows_vector) * crop_w);
    if (!o->held || !o->rgb || !o->pixels || !o->xtab || !o->ytab || !o->buf || !o->sum || !o->rows ||
        !o->held_planes || !o->row_planes || !o->tile) {
        emu_obs_free(o);
        return NULL;
    }
    o->xtab_size = area_table(crop_w, out_w, o->channels, o->xtab);
    o->ytab_size = area_table(crop_h, out_h, 1, o->ytab);
    if (gray && !pad_table(o)) {
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
    free(o->xtab);
    free(o->ytab);
    free(o->buf);
    free(o->sum);
    free(o->rows);
    free(o->pad_src);
    free(o->pad_alpha);
    free(o->held_planes);
    free(o->row_planes);
    free(o->tile);
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

#if defined(__x86_64__) && defined(__GNUC__)
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
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2()) {
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

/* To the nearest, ties to even (OpenCV's cvRound), for the non-negative sums here: adding and taking
 * away 2^23 leaves no fraction bits, so the FPU's rounding mode (to nearest even) does it. */
static inline uint8_t round_u8(float v) {
    volatile float shifted = v + 8388608.f; /* volatile: the add and the subtract must not be folded */
    float r = shifted - 8388608.f;
    return r <= 0.f ? 0 : r >= 255.f ? 255 : (uint8_t)r;
}

static void side_by_side_scalar(const uint8_t *const *rows, unsigned from, unsigned width, rows_vector *tile) {
    for (unsigned x = from; x < width; x++)
        for (unsigned r = 0; r < ROWS_AT_ONCE; r++) tile[x][r] = rows[r][x];
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Eight columns at a time: an 8x8 byte transpose by unpacking, then bytes to floats. */
__attribute__((target("avx2"))) static void side_by_side_avx2(const uint8_t *const *rows, unsigned width,
                                                             rows_vector *tile) {
    unsigned x = 0;
    for (; x + 8 <= width; x += 8) {
        __m128i v[ROWS_AT_ONCE];
        for (unsigned r = 0; r < ROWS_AT_ONCE; r++) v[r] = _mm_loadl_epi64((const __m128i *)(rows[r] + x));
        __m128i a01 = _mm_unpacklo_epi8(v[0], v[1]), a23 = _mm_unpacklo_epi8(v[2], v[3]);
        __m128i a45 = _mm_unpacklo_epi8(v[4], v[5]), a67 = _mm_unpacklo_epi8(v[6], v[7]);
        __m128i b0 = _mm_unpacklo_epi16(a01, a23), b1 = _mm_unpackhi_epi16(a01, a23);
        __m128i c0 = _mm_unpacklo_epi16(a45, a67), c1 = _mm_unpackhi_epi16(a45, a67);
        __m128i columns[4] = {_mm_unpacklo_epi32(b0, c0), _mm_unpackhi_epi32(b0, c0), _mm_unpacklo_epi32(b1, c1),
                              _mm_unpackhi_epi32(b1, c1)}; /* each: column 2i's 8 rows, then column 2i+1's */
        for (unsigned i = 0; i < 4; i++) {
            _mm256_storeu_ps((float *)&tile[x + 2 * i], _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(columns[i])));
            _mm256_storeu_ps((float *)&tile[x + 2 * i + 1],
                             _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(columns[i], 8))));
        }
    }
    side_by_side_scalar(rows, x, width, tile);
}
#endif

/* tile[x][r] = rows[r][x] as floats: the eight rows side by side. */
static void side_by_side(const uint8_t *const *rows, unsigned width, rows_vector *tile) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2()) {
        side_by_side_avx2(rows, width, tile);
        return;
    }
#endif
    side_by_side_scalar(rows, 0, width, tile);
}

/* Gray: every source row's horizontal sums, each in xtab order as OpenCV adds them. Eight rows go
 * together so that their sums (independent chains of float adds) overlap in the pipeline. */
WIDE static void gray_row_sums(emu_obs *o) {
    unsigned width = o->crop_w, last = o->crop_h - 1, per_dx = o->per_dx;
    rows_vector *tile = (rows_vector *)o->tile;
    for (unsigned first = 0; first <= last; first += ROWS_AT_ONCE) {
        const uint8_t *src[ROWS_AT_ONCE];
        for (unsigned r = 0; r < ROWS_AT_ONCE; r++)
            src[r] = o->pixels + (size_t)(first + r < last ? first + r : last) * width;
        side_by_side(src, width, tile);
        rows_vector *sums = o->rows + (size_t)(first / ROWS_AT_ONCE) * o->out_w;
        for (unsigned dx = 0; dx < o->out_w; dx++) {
            const unsigned *at = o->pad_src + dx * per_dx;
            const float *alpha = o->pad_alpha + dx * per_dx;
            rows_vector acc = {0};
            for (unsigned k = 0; k < per_dx; k++) acc += tile[at[k]] * alpha[k]; /* a multiply, then an add */
            sums[dx] = acc;
        }
    }
}

/* OpenCV's ResizeArea_Invoker over the whole image, in its order of float sums. */
static void area_resize(emu_obs *o, uint8_t *dst) {
    unsigned row = o->out_w * o->channels, src_row = o->crop_w * o->channels;
    unsigned prev_dy = o->ytab[0].dst;
    if (o->channels == 1) gray_row_sums(o);
    for (unsigned j = 0; j < o->ytab_size; j++) {
        float beta = o->ytab[j].alpha;
        unsigned dy = o->ytab[j].dst;
        const uint8_t *s = o->pixels + (size_t)o->ytab[j].src * src_row;
        if (o->channels == 1) {
            unsigned sy = o->ytab[j].src;
            const rows_vector *sums = o->rows + (size_t)(sy / ROWS_AT_ONCE) * o->out_w;
            for (unsigned x = 0; x < row; x++) o->buf[x] = sums[x][sy % ROWS_AT_ONCE];
        } else {
            memset(o->buf, 0, sizeof(float) * row);
            for (unsigned k = 0; k < o->xtab_size; k++) {
                unsigned sx = o->xtab[k].src, dx = o->xtab[k].dst;
                float alpha = o->xtab[k].alpha;
                o->buf[dx] += s[sx] * alpha;
                o->buf[dx + 1] += s[sx + 1] * alpha;
                o->buf[dx + 2] += s[sx + 2] * alpha;
            }
        }
        if (j == 0 || dy != prev_dy) {
            if (j != 0) {
                uint8_t *d = dst + (size_t)prev_dy * row;
                for (unsigned x = 0; x < row; x++) d[x] = round_u8(o->sum[x]);
            }
            for (unsigned x = 0; x < row; x++) o->sum[x] = beta * o->buf[x];
            prev_dy = dy;
        } else {
            for (unsigned x = 0; x < row; x++) o->sum[x] += beta * o->buf[x];
        }
    }
    uint8_t *d = dst + (size_t)prev_dy * row;
    for (unsigned x = 0; x < row; x++) d[x] = round_u8(o->sum[x]);
}

/* OpenCV's resizeAreaFast for whole factors: block sums, 2x2 rounded half up (its vector path),
 * others scaled by 1/area in float and rounded to nearest even. */
static void block_resize(emu_obs *o, unsigned fx, unsigned fy, uint8_t *dst) {
    unsigned cn = o->channels, src_row = o->crop_w * cn, area = fx * fy;
    float scale = 1.f / (float)area;
    for (unsigned dy = 0; dy < o->out_h; dy++) {
        const uint8_t *s = o->pixels + (size_t)dy * fy * src_row;
        uint8_t *d = dst + (size_t)dy * o->out_w * cn;
        for (unsigned dx = 0; dx < o->out_w; dx++)
            for (unsigned c = 0; c < cn; c++) {
                int sum = 0;
                for (unsigned y = 0; y < fy; y++)
                    for (unsigned x = 0; x < fx; x++) sum += s[y * src_row + (dx * fx + x) * cn + c];
                d[dx * cn + c] = area == 4 && fx == 2 ? (uint8_t)((sum + 2) >> 2) : round_u8((float)sum * scale);
            }
    }
}

void emu_obs_build(const emu_host *h, emu_obs *o, int pool, uint8_t *dst) {
    int resize = o->out_w != o->crop_w || o->out_h != o->crop_h;
    if (o->gray) {
        gray_from_planes(o, h, pool);
    } else {
        crop_rgb(o, h, o->rgb);
        if (pool) pool_rgb(o);
    }
    if (resize && o->crop_w % o->out_w == 0 && o->crop_h % o->out_h == 0)
        block_resize(o, o->crop_w / o->out_w, o->crop_h / o->out_h, dst);
    else if (resize)
        area_resize(o, dst);
    else
        memcpy(dst, o->pixels, (size_t)o->crop_w * o->crop_h * o->channels);
}
