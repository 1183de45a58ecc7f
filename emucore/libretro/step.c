/* One env step's work in C: an action's buttons in, a frame run, the picture out. */
#include "step.h"

int64_t emu_flags_to_mask(const uint8_t *flags, size_t count) {
    if (count > 48) return -1;
    int64_t mask = 0;
    for (size_t i = 0; i < count; i++) {
        if (flags[i] > 1) return -1;
        mask |= (int64_t)flags[i] << i;
    }
    return mask;
}

int emu_press(emu_host *h, unsigned port, const uint8_t *flags, size_t count, const uint16_t *table) {
    if (!h || port >= EMU_MAX_PORTS || count > 16) return -1;
    unsigned mask = 0;
    for (size_t i = 0; i < count; i++) {
        if (flags[i] > 1) return -1;
        mask |= (unsigned)flags[i] << i;
    }
    h->buttons[port] = table ? table[mask] : (uint16_t)mask;
    return 0;
}

int emu_set_buttons(emu_host *h, unsigned port, const uint8_t *flags, size_t count) {
    if (!h || port >= EMU_MAX_PORTS || count > 16) return -1;
    uint16_t bits = 0;
    for (size_t i = 0; i < count; i++)
        if (flags[i]) bits |= (uint16_t)(1u << i);
    h->buttons[port] = bits;
    return 0;
}

int emu_step_pressed(emu_host *h, const uint8_t *flags, size_t count, const uint16_t *table, uint8_t *dst,
                     unsigned width, unsigned height) {
    if (!h) return -1;
    if (emu_press(h, 0, flags, count, table) != 0) return -2;
    if (emu_run(h) != 0) return -1;
    if (h->rotation % 4 != 0) return 1;
    emu_convert_frame(h, dst, width, height);
    return 0;
}
