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
    float *rows;          /* gray: every source row's horizontal sums, crop_h x out_w */
};

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
    o->rows = malloc(sizeof(float) * out_w * crop_h);
    if (!o->held || !o->rgb || !o->pixels || !o->xtab || !o->ytab || !o->buf || !o->sum || !o->rows) {
        emu_obs_free(o);
        return NULL;
    }
    o->xtab_size = area_table(crop_w, out_w, o->channels, o->xtab);
    o->ytab_size = area_table(crop_h, out_h, 1, o->ytab);
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

void emu_obs_hold(const emu_host *h, emu_obs *o) { crop_rgb(o, h, o->held); }

static inline uint8_t max_u8(uint8_t a, uint8_t b) { return a > b ? a : b; }

static void pool_and_gray(emu_obs *o, int pool) {
    size_t count = (size_t)o->crop_w * o->crop_h;
    uint8_t *restrict rgb = o->rgb;
    const uint8_t *restrict held = o->held;
    if (pool)
        for (size_t i = 0; i < count * 3; i++) rgb[i] = max_u8(rgb[i], held[i]);
    if (o->gray) {
        uint8_t *restrict gray = o->pixels;
        for (size_t i = 0; i < count; i++)
            gray[i] = (uint8_t)((rgb[3 * i] * 4899u + rgb[3 * i + 1] * 9617u + rgb[3 * i + 2] * 1868u + (1u << 13))
                                >> 14);
    }
}

static inline uint8_t round_u8(float v) {
    float r = nearbyintf(v);
    return r <= 0.f ? 0 : r >= 255.f ? 255 : (uint8_t)r;
}

#define ROWS_AT_ONCE 8

/* Gray: every source row's horizontal sums, each in xtab order as OpenCV adds them. Eight rows go
 * together so that their sums (independent chains of float adds) overlap in the pipeline. */
static void gray_row_sums(emu_obs *o) {
    const area_weight *end = o->xtab + o->xtab_size;
    unsigned width = o->crop_w, last = o->crop_h - 1;
    for (unsigned first = 0; first <= last; first += ROWS_AT_ONCE) {
        const uint8_t *src[ROWS_AT_ONCE];
        for (unsigned r = 0; r < ROWS_AT_ONCE; r++)
            src[r] = o->pixels + (size_t)(first + r < last ? first + r : last) * width;
        for (const area_weight *w = o->xtab; w < end;) {
            unsigned dx = w->dst;
            float acc[ROWS_AT_ONCE] = {0};
            for (; w < end && w->dst == dx; w++)
                for (unsigned r = 0; r < ROWS_AT_ONCE; r++) acc[r] += src[r][w->src] * w->alpha;
            for (unsigned r = 0; r < ROWS_AT_ONCE && first + r <= last; r++)
                o->rows[(size_t)(first + r) * o->out_w + dx] = acc[r];
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
            memcpy(o->buf, o->rows + (size_t)o->ytab[j].src * o->out_w, sizeof(float) * row);
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
    crop_rgb(o, h, o->rgb);
    pool_and_gray(o, pool);
    if (resize && o->crop_w % o->out_w == 0 && o->crop_h % o->out_h == 0)
        block_resize(o, o->crop_w / o->out_w, o->crop_h / o->out_h, dst);
    else if (resize)
        area_resize(o, dst);
    else
        memcpy(dst, o->pixels, (size_t)o->crop_w * o->crop_h * o->channels);
}
