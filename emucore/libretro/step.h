/* One env step's work in C: an action's buttons in, a frame run, the picture out (step.c). */
#ifndef EMUCORE_STEP_H
#define EMUCORE_STEP_H

#include "host.h"

/* cdef: begin */
/* Player 1's MultiBinary flags pressed (as emu_press), a frame run, and the frame converted into
 * dst (width x height RGB888, as emu_convert_frame) unless the core rotates its picture.
 * 0: run and converted; 1: run, not converted (rotated); -2: a flag is not 0 or 1, nothing run;
 * -1: the core threw (h->error says what). */
int emu_step_pressed(emu_host *h, const uint8_t *flags, size_t count, const uint16_t *table, uint8_t *dst,
                     unsigned width, unsigned height);
/* cdef: end */

#endif
