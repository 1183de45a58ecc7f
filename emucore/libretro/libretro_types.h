/* libretro.h structures that the Python side of the host decodes in environment calls.
 * Declared from the libretro API documentation. */
#ifndef EMUCORE_LIBRETRO_TYPES_H
#define EMUCORE_LIBRETRO_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
struct retro_variable { const char *key; const char *value; };
struct retro_core_option_value { const char *value; const char *label; };
struct retro_core_option_definition {
    const char *key; const char *desc; const char *info;
    struct retro_core_option_value values[128];
    const char *default_value;
};
struct retro_core_options_intl {
    struct retro_core_option_definition *us;
    struct retro_core_option_definition *local;
};
struct retro_core_option_v2_category { const char *key; const char *desc; const char *info; };
struct retro_core_option_v2_definition {
    const char *key; const char *desc; const char *desc_categorized;
    const char *info; const char *info_categorized; const char *category_key;
    struct retro_core_option_value values[128];
    const char *default_value;
};
struct retro_core_options_v2 {
    struct retro_core_option_v2_category *categories;
    struct retro_core_option_v2_definition *definitions;
};
struct retro_core_options_v2_intl {
    struct retro_core_options_v2 *us;
    struct retro_core_options_v2 *local;
};
struct retro_memory_descriptor {
    uint64_t flags; void *ptr; size_t offset; size_t start; size_t select;
    size_t disconnect; size_t len; const char *addrspace;
};
struct retro_memory_map { const struct retro_memory_descriptor *descriptors; unsigned num_descriptors; };
struct retro_input_descriptor {
    unsigned port; unsigned device; unsigned index; unsigned id; const char *description;
};
struct retro_controller_description { const char *desc; unsigned id; };
struct retro_controller_info { const struct retro_controller_description *types; unsigned num_types; };
struct retro_message { const char *msg; unsigned frames; };
/* cdef: end */

#endif
