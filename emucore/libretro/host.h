/* The C half of emucore's libretro host: per-frame callbacks and pixel conversion.
 *
 * libretro callbacks carry no instance pointer, so every call into a core goes through
 * an emu_* wrapper that makes its host the thread's current one; the callbacks look it up.
 */
#ifndef EMUCORE_HOST_H
#define EMUCORE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core_rand.h"

/* cdef: begin */
#define EMU_MAX_PORTS 4
#define EMU_ERR_LEN 512

struct retro_system_info {
    const char *library_name;
    const char *library_version;
    const char *valid_extensions;
    bool need_fullpath;
    bool block_extract;
};

struct retro_game_geometry {
    unsigned base_width;
    unsigned base_height;
    unsigned max_width;
    unsigned max_height;
    float aspect_ratio;
};

struct retro_system_timing {
    double fps;
    double sample_rate;
};

struct retro_system_av_info {
    struct retro_game_geometry geometry;
    struct retro_system_timing timing;
};

struct retro_game_info {
    const char *path;
    const void *data;
    size_t size;
    const char *meta;
};

typedef struct emu_host {
    void *dl;
    void *userdata;            /* a cffi handle to the Python session */
    char error[EMU_ERR_LEN];

    /* core entry points */
    unsigned (*retro_api_version)(void);
    void (*retro_set_environment)(void *);
    void (*retro_set_video_refresh)(void *);
    void (*retro_set_audio_sample)(void *);
    void (*retro_set_audio_sample_batch)(void *);
    void (*retro_set_input_poll)(void *);
    void (*retro_set_input_state)(void *);
    void (*retro_init)(void);
    void (*retro_deinit)(void);
    void (*retro_get_system_info)(struct retro_system_info *);
    void (*retro_get_system_av_info)(struct retro_system_av_info *);
    void (*retro_set_controller_port_device)(unsigned, unsigned);
    void (*retro_reset)(void);
    void (*retro_run)(void);
    size_t (*retro_serialize_size)(void);
    bool (*retro_serialize)(void *, size_t);
    bool (*retro_unserialize)(const void *, size_t);
    void (*retro_cheat_reset)(void);
    void (*retro_cheat_set)(unsigned, bool, const char *);
    bool (*retro_load_game)(const struct retro_game_info *);
    void (*retro_unload_game)(void);
    unsigned (*retro_get_region)(void);
    void *(*retro_get_memory_data)(unsigned);
    size_t (*retro_get_memory_size)(unsigned);

    /* video: the last frame the core passed, converted lazily */
    int pixel_format;          /* 0 = 0RGB1555, 1 = XRGB8888, 2 = RGB565 */
    const void *frame;
    unsigned frame_width;
    unsigned frame_height;
    size_t frame_pitch;
    int frame_format;
    bool copy_frames;          /* set when the core may send dupes: keep our own copy */
    uint8_t *frame_copy;
    size_t frame_copy_size;
    uint64_t video_calls;
    uint64_t dupe_frames;

    /* input */
    uint16_t buttons[EMU_MAX_PORTS];
    uint64_t input_polls;

    /* audio of the last run, interleaved stereo */
    int16_t *audio;
    size_t audio_frames;
    size_t audio_capacity;
    bool audio_overflow;

    /* environment answers kept in C because cores ask for them every frame */
    bool variable_update;
    bool can_dupe;
    unsigned rotation;

    uint64_t frames_run;

    /* where the core keeps SYSTEM_RAM, asked after every frame, reset, state load and game load
     * (the answer may move); the core's info lines during the host's own asking are dropped */
    const void *ram_data;
    size_t ram_size;
    bool asking_ram;

    /* calls the core made into Python (environment commands not answered here, log lines), and the
     * memory maps it sent (RETRO_ENVIRONMENT_SET_MEMORY_MAPS, counted before Python handles them):
     * frames run in C stop after one in which either changed (skip.c) */
    uint64_t python_calls;
    uint64_t memory_maps_sets;

    /* the core's rand() and srand() (core_rand.h): this session's generator, and how many imports use it */
    emu_rand_state rand;
    int rand_imports;

    /* one thread at a time inside the emulator: Python's calls (CoreSession._call) and the batch step's
     * (step_batch.c) take it with emu_host_enter, each call with a token of its own (0: free); closed is set
     * under it, so no one runs a closed core */
    int64_t busy;
    int closed;
} emu_host;

emu_host *emu_host_new(void *userdata);
int emu_host_open(emu_host *h, const char *path);
/* Unloads the core library; the struct stays readable until emu_host_free. */
void emu_host_close(emu_host *h);
void emu_host_free(emu_host *h);
/* Takes the busy flag for the call token (not 0): 1, or 0 if another call holds it (nothing taken). */
int emu_host_enter(emu_host *h, int64_t token);
/* Lets the flag go if the call token holds it (so a caller may leave whether or not its enter took it). */
void emu_host_leave(emu_host *h, int64_t token);

unsigned emu_api_version(emu_host *h);
void emu_set_callbacks(emu_host *h);
/* The core's entry points that can throw (C++ cores) return -1 then, with h->error saying what. */
int emu_init(emu_host *h);
int emu_deinit(emu_host *h);
void emu_get_system_info(emu_host *h, struct retro_system_info *info);
void emu_get_system_av_info(emu_host *h, struct retro_system_av_info *info);
int emu_load_game(emu_host *h, const struct retro_game_info *game); /* 1 loaded, 0 refused, -1 threw */
int emu_unload_game(emu_host *h);

int emu_run(emu_host *h);  /* -1: the core threw (h->error says what) */
int emu_run_frames(emu_host *h, unsigned count);
int emu_reset(emu_host *h);
size_t emu_serialize_size(emu_host *h); /* 0 if it threw */
int emu_serialize(emu_host *h, void *data, size_t size); /* 1 ok, 0 refused, -1 threw */
int emu_unserialize(emu_host *h, const void *data, size_t size);  /* 1 ok, 0 refused, -1 threw */
void *emu_get_memory_data(emu_host *h, unsigned id);
size_t emu_get_memory_size(emu_host *h, unsigned id);
void emu_set_controller_port_device(emu_host *h, unsigned port, unsigned device);
/* A MultiBinary action's flags (0 or 1, at most 16) for a port, through table (what each mask
 * becomes: FILTERED's groups) or as they are if table is NULL; -1, with nothing pressed, otherwise. */
int emu_press(emu_host *h, unsigned port, const uint8_t *flags, size_t count, const uint16_t *table);
void emu_cheat_reset(emu_host *h);
void emu_cheat_set(emu_host *h, unsigned index, bool enabled, const char *code);
unsigned emu_get_region(emu_host *h);

/* seeds the session's generator, and glibc's for a core whose imports could not be bound */
void emu_host_srand(emu_host *h, unsigned seed);
/* Sets a port's buttons from one flag byte per button (stable-retro's array form). */
int emu_set_buttons(emu_host *h, unsigned port, const uint8_t *flags, size_t count);
/* The bitmask of one flag byte per button, or -1 if a byte is not 0 or 1 (or count > 48). */
int64_t emu_flags_to_mask(const uint8_t *flags, size_t count);

/* Converts the last frame to packed RGB888 (rows of width*3 bytes). Pixels outside the
 * rendered frame are zero. Returns 0, or -1 if no frame was rendered yet. */
int emu_convert_frame(const emu_host *h, uint8_t *dst, unsigned width, unsigned height);
/* Converts an arbitrary buffer; used by tests and by the studio for saved frames. */
void emu_convert_pixels(const void *src, unsigned src_width, unsigned src_height, size_t pitch,
                        int format, uint8_t *dst, unsigned width, unsigned height);
/* cdef: end */

/* cdef: begin extern "Python+C" */
/* Implemented in Python (emucore.libretro.environment, through ffi.def_extern): cffi's stubs take the GIL. */
bool emu_py_environment(void *userdata, unsigned cmd, void *data);
void emu_py_log(void *userdata, int level, const char *text);
/* cdef: end */

/* guard.cpp: calls that catch a core's C++ exceptions (-1, with the message in error) */
int emu_guarded_unserialize(bool (*unserialize)(const void *, size_t), const void *data, size_t size,
                            char *error, size_t error_size);
int emu_guarded_run(void (*run)(void), char *error, size_t error_size);
/* call(context), any other core entry point: 0, or -1 if it threw */
int emu_guarded_call(void (*call)(void *), void *context, char *error, size_t error_size);

#endif
