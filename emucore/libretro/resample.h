/* Area resampling of 8-bit images, as OpenCV's resize with INTER_AREA (see resample.c). */
#ifndef EMUCORE_RESAMPLE_H
#define EMUCORE_RESAMPLE_H

#include <stdint.h>

typedef struct emu_area emu_area;

/* Shrinks src_w x src_h images of 1 or 3 channels to dst_w x dst_h (at most the source's size).
 * NULL if the sizes are not that or memory is short. */
emu_area *emu_area_new(unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h, unsigned channels);
void emu_area_free(emu_area *a);
void emu_area_resize(emu_area *a, const uint8_t *src, uint8_t *dst);

/* Source row y of a one-channel image, made on demand; it must stay valid until eight more are asked. */
typedef const uint8_t *(*emu_row_source)(void *context, unsigned y);
/* Whether emu_area_resize_rows can take this resampling (one channel, a fraction of the size). */
int emu_area_streams(const emu_area *a);
/* emu_area_resize with the source rows asked for in order, eight at a time: no whole image is needed. */
void emu_area_resize_rows(emu_area *a, emu_row_source source, void *context, uint8_t *dst);

/* Source rows first .. first + count - 1 (count at most eight) side by side as floats: tile[8 x + r] is
 * row first + r's pixel x; lanes r past count are any finite value. tile is 32-byte aligned. */
typedef void (*emu_tile_source)(void *context, unsigned first, unsigned count, float *tile);
/* emu_area_resize_rows with the rows given eight at a time, side by side, where emu_area_streams. */
void emu_area_resize_tiles(emu_area *a, emu_tile_source source, void *context, uint8_t *dst);

#endif
