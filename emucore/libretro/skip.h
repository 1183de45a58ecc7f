/* A frame-skipping env step's frames in one call: each run, evaluated by a compiled scenario
 * (evaluate.h), its rewards summed, the frame before the last held for pooling (frames.h). */
#ifndef EMUCORE_SKIP_H
#define EMUCORE_SKIP_H

#include <stdint.h>

#include "evaluate.h"
#include "frames.h"
#include "host.h"

/* cdef: begin */
typedef struct emu_skip_result {
    int32_t ran;       /* frames run */
    int32_t evaluated; /* frames evaluated: ran, or ran - 1 when the loop stopped before evaluating the last */
    int32_t done;      /* the last frame evaluated was done */
} emu_skip_result;

/* Runs up to frames frames with the buttons held (the caller pressed them). The program is bound to
 * memory found at (ram_data, ram_size) when check_ram, and after memory_maps_sets maps: after a frame
 * that leaves either elsewhere, or in which the core called into Python (whose handler may have
 * raised), the loop stops with that frame run but not evaluated. Else each frame is evaluated
 * (emu_eval_run), sums[j] gets each scored player's reward added as a double in frame order (the
 * first frame's reward as it is), the loop stops after a done frame, and if hold is not NULL the
 * frame at index frames - 2 is held in it (emu_obs_hold). If switch is not NULL, its EMU_MAX_PORTS button
 * masks are held from the second frame on (the sticky frame skip: the first frame keeps the buttons held
 * before the step); a loop that stops after the first frame leaves them unapplied. 0, or -1 if the core
 * threw (h->error says what; result tells what ran before). */
int emu_skip_run(emu_host *h, const emu_eval_program *program, int32_t frames, emu_obs *hold, uintptr_t ram_data,
                 size_t ram_size, uint64_t memory_maps_sets, int check_ram, const uint16_t *switch_masks,
                 double *sums, emu_skip_result *result);
/* cdef: end */

#endif
