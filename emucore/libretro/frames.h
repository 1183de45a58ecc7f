/* Observations built in C from the frames a core passes: crop, max of the last two frames,
 * grayscale and area resize, for env steps that skip frames (see frames.c). */
#ifndef EMUCORE_FRAMES_H
#define EMUCORE_FRAMES_H

#include <stdint.h>

#include "host.h"
#include "vector_paths.h" /* emu_obs_vector_paths */

/* cdef: begin */
typedef struct emu_obs emu_obs;

/* A plan for observations of the (crop_w x crop_h) region at (crop_x, crop_y) of a (screen_w x
 * screen_h) screen, as out_w x out_h (at most the crop's size) RGB or gray. NULL if out of memory. */
emu_obs *emu_obs_new(unsigned screen_w, unsigned screen_h, unsigned crop_x, unsigned crop_y, unsigned crop_w,
                     unsigned crop_h, unsigned out_w, unsigned out_h, int gray);
void emu_obs_free(emu_obs *o);
/* Keeps the current frame (RGB, cropped) to pool with the next one. */
void emu_obs_hold(const emu_host *h, emu_obs *o);
/* The observation of the current frame (pooled with the held one if pool) into dst: out_h x out_w
 * x 3, or out_h x out_w if gray. */
void emu_obs_build(const emu_host *h, emu_obs *o, int pool, uint8_t *dst);
/* cdef: end */
#endif
