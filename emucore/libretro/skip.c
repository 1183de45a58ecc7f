/* See skip.h. The order of work is Stepper.frames_after's (emucore/env/stepping.py) with
 * Emulator.step() then Evaluator.update_ram() for each frame, which the tests compare it with. */
#include "skip.h"

#include <string.h>

static int moved(const emu_host *h, uint64_t python_calls, uintptr_t ram_data, size_t ram_size,
                 uint64_t memory_maps_sets, int check_ram) {
    if (h->python_calls != python_calls || h->memory_maps_sets != memory_maps_sets)
        return 1;
    return check_ram && ((uintptr_t)h->ram_data != ram_data || h->ram_size != ram_size);
}

int emu_skip_run(emu_host *h, const emu_eval_program *program, int32_t frames, emu_obs *hold, uintptr_t ram_data,
                 size_t ram_size, uint64_t memory_maps_sets, int check_ram, const uint16_t *switch_masks,
                 double *sums, emu_skip_result *result) {
    result->ran = result->evaluated = result->done = 0;
    if (!h) return 0;
    uint64_t python_calls = h->python_calls;
    for (int32_t i = 0; i < frames; i++) {
        if (switch_masks && i == 1)
            memcpy(h->buttons, switch_masks, sizeof h->buttons);
        int threw = emu_run(h);
        result->ran = i + 1;
        if (threw) return -1;
        if (moved(h, python_calls, ram_data, ram_size, memory_maps_sets, check_ram))
            return 0;
        int done = emu_eval_run(program);
        for (int32_t j = 0; j < program->n_players; j++) {
            double reward = program->rewards[j];
            sums[j] = i == 0 ? reward : sums[j] + reward;
        }
        result->evaluated = i + 1;
        result->done = done;
        if (done) return 0;
        if (hold && i == frames - 2)
            emu_obs_hold(h, hold);
    }
    return 0;
}
