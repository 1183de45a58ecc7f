/* Area resampling with OpenCV's INTER_AREA results, bit for bit.
 *
 * Whole factors take OpenCV's resizeAreaFast (block sums; 2x2 rounded half up as its vector path
 * does, others scaled by 1/area in float). Other sizes take its general path: the weights of
 * computeResizeAreaTab, and the float sums in ResizeArea_Invoker's order (each source row's
 * horizontal sums, then those rows weighted into each destination row), rounded to nearest even.
 * One-channel images sum eight source rows at once (independent chains of float adds, each in that
 * order); no FMA is used, so each product is rounded before its add, as in OpenCV's scalar code.
 */
#pragma GCC optimize("O3") /* the loops below vectorize at O3, not at the build's O2 */
#include "resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vector_paths.h"

#define ROWS_AT_ONCE 8
typedef float rows_vector __attribute__((vector_size(ROWS_AT_ONCE * sizeof(float))));

typedef struct { unsigned src, dst; float alpha; } area_weight;

struct emu_area {
    unsigned src_w, src_h, dst_w, dst_h, channels;
    unsigned sums_w;      /* dst_w rounded up to whole vectors of 8: sums and lines have no odd tail */
    area_weight *xtab, *ytab;
    unsigned xtab_size, ytab_size;
    float *sum;           /* one destination row of sums */
    rows_vector *sums;    /* one channel: eight source rows' horizontal sums, [sums_w][8] */
    float *lines;         /* one channel: eight source rows' horizontal sums, [8][sums_w] */
    unsigned *pad_src;    /* one channel: xtab as per_dx entries for each dx (padded with weight 0) */
    float *pad_alpha;
    unsigned per_dx;
    rows_vector *tile;    /* one channel: eight source rows side by side, [src_w][8] */
    emu_area *plane;      /* three channels: each resampled alone (OpenCV's sums are per channel) */
    uint8_t *planes;      /* three channels: the source's three planes, then the destination's */
};

static int avx2 = -1;

int emu_avx2_forms(void) {
#ifdef EMU_AVX2_FORMS
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    return avx2;
#else
    return 0;
#endif
}

int emu_obs_vector_paths(int enabled) {
    int was = emu_avx2_forms();
#ifdef EMU_AVX2_FORMS
    avx2 = enabled && __builtin_cpu_supports("avx2");
#endif
    return was;
}

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
static int pad_table(emu_area *a) {
    unsigned most = 0, count = 0;
    for (unsigned k = 0; k < a->xtab_size; k++) {
        count = k && a->xtab[k].dst == a->xtab[k - 1].dst ? count + 1 : 1;
        if (count > most) most = count;
    }
    a->per_dx = most;
    a->pad_src = calloc((size_t)a->sums_w * most, sizeof *a->pad_src); /* dx past dst_w: weight 0 */
    a->pad_alpha = calloc((size_t)a->sums_w * most, sizeof *a->pad_alpha);
    if (!a->pad_src || !a->pad_alpha) return 0;
    unsigned filled = 0;
    for (unsigned k = 0; k < a->xtab_size; k++) {
        unsigned dx = a->xtab[k].dst;
        filled = k && dx == a->xtab[k - 1].dst ? filled + 1 : 0;
        a->pad_src[dx * most + filled] = a->xtab[k].src;
        a->pad_alpha[dx * most + filled] = a->xtab[k].alpha;
    }
    return 1;
}

emu_area *emu_area_new(unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h, unsigned channels) {
    if (!dst_w || !dst_h || dst_w > src_w || dst_h > src_h || (channels != 1 && channels != 3)) return NULL;
    emu_area *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    *a = (emu_area){.src_w = src_w, .src_h = src_h, .dst_w = dst_w, .dst_h = dst_h, .channels = channels,
                    .sums_w = (dst_w + 7) / 8 * 8};
    a->xtab = malloc(sizeof(area_weight) * (src_w + 2 * dst_w));
    a->ytab = malloc(sizeof(area_weight) * (src_h + 2 * dst_h));
    a->sum = malloc(sizeof(float) * dst_w * channels);
    a->sums = aligned_alloc(sizeof(rows_vector), sizeof(rows_vector) * a->sums_w);
    a->lines = malloc(sizeof(float) * a->sums_w * ROWS_AT_ONCE);
    a->tile = aligned_alloc(sizeof(rows_vector), sizeof(rows_vector) * src_w);
    if (!a->xtab || !a->ytab || !a->sum || !a->sums || !a->lines || !a->tile) {
        emu_area_free(a);
        return NULL;
    }
    a->xtab_size = area_table(src_w, dst_w, channels, a->xtab);
    a->ytab_size = area_table(src_h, dst_h, 1, a->ytab);
    if (channels == 1 && !pad_table(a)) {
        emu_area_free(a);
        return NULL;
    }
    if (channels == 3) {
        a->plane = emu_area_new(src_w, src_h, dst_w, dst_h, 1);
        a->planes = malloc(((size_t)src_w * src_h + (size_t)dst_w * dst_h) * 3);
        if (!a->plane || !a->planes) {
            emu_area_free(a);
            return NULL;
        }
    }
    return a;
}

void emu_area_free(emu_area *a) {
    if (!a) return;
    free(a->xtab);
    free(a->ytab);
    free(a->sum);
    free(a->sums);
    free(a->lines);
    free(a->pad_src);
    free(a->pad_alpha);
    free(a->tile);
    emu_area_free(a->plane);
    free(a->planes);
    free(a);
}

/* To the nearest, ties to even (OpenCV's cvRound), for the non-negative sums here: adding and taking
 * away 2^23 leaves no fraction bits, so the FPU's rounding mode (to nearest even) does it. */
static inline uint8_t round_u8(float v) {
    volatile float shifted = v + 8388608.f; /* volatile: the add and the subtract must not be folded */
    float r = shifted - 8388608.f;
    return r <= 0.f ? 0 : r >= 255.f ? 255 : (uint8_t)r;
}

static void round_row_scalar(const float *sum, uint8_t *out, unsigned from, unsigned n) {
    for (unsigned x = from; x < n; x++) out[x] = round_u8(sum[x]);
}

#ifdef EMU_AVX2_FORMS
/* 32 sums a step: cvtps2dq rounds as the FPU's mode (to nearest even, as round_u8), packs saturate to 0..255. */
__attribute__((target("avx2"))) static void round_row_avx2(const float *sum, uint8_t *out, unsigned n) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    unsigned x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i v0 = _mm256_cvtps_epi32(_mm256_loadu_ps(sum + x)), v1 = _mm256_cvtps_epi32(_mm256_loadu_ps(sum + x + 8));
        __m256i v2 = _mm256_cvtps_epi32(_mm256_loadu_ps(sum + x + 16));
        __m256i v3 = _mm256_cvtps_epi32(_mm256_loadu_ps(sum + x + 24));
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(v0, v1), _mm256_packus_epi32(v2, v3));
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; x + 8 <= n; x += 8) {
        __m128i lo = _mm_cvtps_epi32(_mm_loadu_ps(sum + x)), hi = _mm_cvtps_epi32(_mm_loadu_ps(sum + x + 4));
        __m128i words = _mm_packs_epi32(lo, hi); /* 0..255 plus rounding slack: no signed saturation */
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(words, words));
    }
    round_row_scalar(sum, out, x, n);
}
#endif

/* out[x] = round_u8(sum[x]) */
static void round_row(const float *sum, uint8_t *out, unsigned n) {
#ifdef EMU_AVX2_FORMS
    if (emu_avx2_forms()) {
        round_row_avx2(sum, out, n);
        return;
    }
#endif
    round_row_scalar(sum, out, 0, n);
}

static void side_by_side_scalar(const uint8_t *const *rows, unsigned from, unsigned width, rows_vector *tile) {
    for (unsigned x = from; x < width; x++)
        for (unsigned r = 0; r < ROWS_AT_ONCE; r++) tile[x][r] = rows[r][x];
}

#ifdef EMU_AVX2_FORMS
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
#ifdef EMU_AVX2_FORMS
    if (emu_avx2_forms()) {
        side_by_side_avx2(rows, width, tile);
        return;
    }
#endif
    side_by_side_scalar(rows, 0, width, tile);
}

static void lay_out_scalar(const rows_vector *sums, unsigned from, unsigned width, unsigned rows, float *lines) {
    for (unsigned dx = from; dx < width; dx++)
        for (unsigned r = 0; r < rows; r++) lines[(size_t)r * width + dx] = sums[dx][r];
}

#ifdef EMU_AVX2_FORMS
/* Eight sums at a time: an 8x8 float transpose. */
__attribute__((target("avx2"))) static void lay_out_avx2(const rows_vector *sums, unsigned width, unsigned rows,
                                                        float *lines) {
    unsigned dx = 0;
    for (; dx + 8 <= width; dx += 8) {
        __m256 v[8], t[8];
        for (unsigned i = 0; i < 8; i++) v[i] = _mm256_loadu_ps((const float *)&sums[dx + i]);
        emu_transpose8(v, t);
        for (unsigned r = 0; r < rows; r++) /* row r: lanes r of sums[dx..dx+7] */
            _mm256_storeu_ps(lines + (size_t)r * width + dx, t[r]);
    }
    lay_out_scalar(sums, dx, width, rows, lines);
}
#endif

/* The eight rows' sums as rows of lines: lines[r][dx] = sums[dx][r]. */
static void lay_out(const rows_vector *sums, unsigned width, unsigned rows, float *lines) {
#ifdef EMU_AVX2_FORMS
    if (emu_avx2_forms()) {
        lay_out_avx2(sums, width, rows, lines);
        return;
    }
#endif
    lay_out_scalar(sums, 0, width, rows, lines);
}

/* The tile's horizontal sums, each in xtab order as OpenCV adds them, for per_dx entries a dx. */
static inline __attribute__((always_inline)) void tile_sums(emu_area *a, unsigned per_dx) {
    const rows_vector *tile = a->tile;
    const unsigned *at = a->pad_src;
    const float *alpha = a->pad_alpha;
    for (unsigned dx = 0; dx < a->sums_w; dx++, at += per_dx, alpha += per_dx) {
        rows_vector acc = tile[at[0]] * alpha[0]; /* OpenCV adds it to 0: the same, as it is not -0 */
        for (unsigned k = 1; k < per_dx; k++) acc += tile[at[k]] * alpha[k]; /* a multiply, then an add */
        a->sums[dx] = acc;
    }
}

/* Eight source rows' horizontal sums (of a->tile), laid out as rows of lines. */
WIDE static void row_sums(emu_area *a, unsigned filled) {
    switch (a->per_dx) { /* the common counts with their loops unrolled */
    case 2: tile_sums(a, 2); break;
    case 3: tile_sums(a, 3); break;
    case 4: tile_sums(a, 4); break;
    case 5: tile_sums(a, 5); break;
    case 6: tile_sums(a, 6); break;
    default: tile_sums(a, a->per_dx);
    }
    lay_out(a->sums, a->sums_w, filled, a->lines);
}

/* sum = beta * buf, and sum += beta * buf: a multiply, then an add (no FMA in either form). */
WIDE static void scale_row(float *restrict sum, float beta, const float *restrict buf, unsigned n) {
    for (unsigned x = 0; x < n; x++) sum[x] = beta * buf[x];
}

WIDE static void add_scaled_row(float *restrict sum, float beta, const float *restrict buf, unsigned n) {
    for (unsigned x = 0; x < n; x++) sum[x] += beta * buf[x];
}

/* OpenCV's ResizeArea_Invoker over a one-channel image, in its order of float sums, taking source rows
 * eight at a time: the table's source rows never go back, so each block's weighted sums are added to
 * the destination rows as soon as they exist, and neither the image nor all its sums are kept. */
static void area_resize_any(emu_area *a, emu_row_source source, emu_tile_source tiles, void *context,
                            uint8_t *dst) {
    unsigned row = a->dst_w, last = a->src_h - 1, j = 0, prev_dy = a->ytab[0].dst;
    for (unsigned first = 0; first <= last; first += ROWS_AT_ONCE) {
        unsigned filled = last - first + 1 < ROWS_AT_ONCE ? last - first + 1 : ROWS_AT_ONCE;
        if (tiles) {
            tiles(context, first, filled, (float *)a->tile);
        } else {
            const uint8_t *rows[ROWS_AT_ONCE];
            for (unsigned r = 0; r < ROWS_AT_ONCE; r++) rows[r] = r < filled ? source(context, first + r) : rows[r - 1];
            side_by_side(rows, a->src_w, a->tile);
        }
        row_sums(a, filled);
        for (; j < a->ytab_size && a->ytab[j].src < first + filled; j++) {
            float beta = a->ytab[j].alpha;
            unsigned dy = a->ytab[j].dst;
            const float *buf = a->lines + (size_t)(a->ytab[j].src - first) * a->sums_w;
            if (j == 0 || dy != prev_dy) {
                if (j != 0) round_row(a->sum, dst + (size_t)prev_dy * row, row);
                scale_row(a->sum, beta, buf, row);
                prev_dy = dy;
            } else {
                add_scaled_row(a->sum, beta, buf, row);
            }
        }
    }
    round_row(a->sum, dst + (size_t)prev_dy * row, row);
}

static void area_resize_rows(emu_area *a, emu_row_source source, void *context, uint8_t *dst) {
    area_resize_any(a, source, NULL, context, dst);
}

typedef struct { const uint8_t *pixels; unsigned width; } image_rows;

static const uint8_t *image_row(void *context, unsigned y) {
    const image_rows *image = context;
    return image->pixels + (size_t)y * image->width;
}

static void area_resize(emu_area *a, const uint8_t *src, uint8_t *dst) {
    image_rows image = {src, a->src_w};
    area_resize_rows(a, image_row, &image, dst);
}

int emu_area_streams(const emu_area *a) {
    return a->channels == 1 && (a->src_w % a->dst_w != 0 || a->src_h % a->dst_h != 0);
}

void emu_area_resize_rows(emu_area *a, emu_row_source source, void *context, uint8_t *dst) {
    area_resize_rows(a, source, context, dst);
}

void emu_area_resize_tiles(emu_area *a, emu_tile_source source, void *context, uint8_t *dst) {
    area_resize_any(a, NULL, source, context, dst);
}

/* OpenCV's resizeAreaFast for whole factors. */
/* Halving both ways, the common case: (four pixels + 2) >> 2, across a row at a time. */
WIDE static void halve(const uint8_t *restrict top, const uint8_t *restrict bottom, uint8_t *restrict out,
                       unsigned count, unsigned cn) {
    for (unsigned i = 0; i < count; i++) {
        unsigned x = i / cn * 2 * cn + i % cn;
        out[i] = (uint8_t)((top[x] + top[x + cn] + bottom[x] + bottom[x + cn] + 2) >> 2);
    }
}

static void block_resize(const emu_area *a, const uint8_t *src, uint8_t *dst) {
    unsigned fx = a->src_w / a->dst_w, fy = a->src_h / a->dst_h;
    unsigned cn = a->channels, src_row = a->src_w * cn, area = fx * fy;
    if (fx == 2 && fy == 2) {
        for (unsigned dy = 0; dy < a->dst_h; dy++) {
            const uint8_t *top = src + (size_t)dy * 2 * src_row;
            halve(top, top + src_row, dst + (size_t)dy * a->dst_w * cn, a->dst_w * cn, cn);
        }
        return;
    }
    float scale = 1.f / (float)area;
    for (unsigned dy = 0; dy < a->dst_h; dy++) {
        const uint8_t *s = src + (size_t)dy * fy * src_row;
        uint8_t *d = dst + (size_t)dy * a->dst_w * cn;
        for (unsigned dx = 0; dx < a->dst_w; dx++)
            for (unsigned c = 0; c < cn; c++) {
                int sum = 0;
                for (unsigned y = 0; y < fy; y++)
                    for (unsigned x = 0; x < fx; x++) sum += s[y * src_row + (dx * fx + x) * cn + c];
                d[dx * cn + c] = round_u8((float)sum * scale);
            }
    }
}

/* Three channels: OpenCV sums each channel alone, in the same order, so each plane is resampled as one. */
static void planes_resize(emu_area *a, const uint8_t *src, uint8_t *dst) {
    size_t in = (size_t)a->src_w * a->src_h, out = (size_t)a->dst_w * a->dst_h;
    uint8_t *planes = a->planes, *resized = planes + 3 * in;
    for (size_t i = 0; i < in; i++)
        for (unsigned c = 0; c < 3; c++) planes[c * in + i] = src[3 * i + c];
    for (unsigned c = 0; c < 3; c++) area_resize(a->plane, planes + c * in, resized + c * out);
    for (size_t i = 0; i < out; i++)
        for (unsigned c = 0; c < 3; c++) dst[3 * i + c] = resized[c * out + i];
}

void emu_area_resize(emu_area *a, const uint8_t *src, uint8_t *dst) {
    if (a->dst_w == a->src_w && a->dst_h == a->src_h)
        memcpy(dst, src, (size_t)a->src_w * a->src_h * a->channels);
    else if (a->src_w % a->dst_w == 0 && a->src_h % a->dst_h == 0)
        block_resize(a, src, dst);
    else if (a->channels == 3)
        planes_resize(a, src, dst);
    else
        area_resize(a, src, dst);
}
