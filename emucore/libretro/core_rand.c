/* See core_rand.h. */
#define _GNU_SOURCE
#include "core_rand.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SLOT_JUMP R_X86_64_JUMP_SLOT
#define SLOT_DATA R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define SLOT_JUMP R_AARCH64_JUMP_SLOT
#define SLOT_DATA R_AARCH64_GLOB_DAT
#endif

void emu_rand_seed(emu_rand_state *state, unsigned seed) {
    if (!state->data.state) {
        memset(&state->data, 0, sizeof state->data);
        initstate_r(seed, (char *)state->table, sizeof state->table, &state->data);
    } else {
        srandom_r(seed, &state->data);
    }
}

static int session_rand(void) {
    emu_rand_state *state = emu_current_rand();
    int32_t value;
    if (!state) return rand();
    random_r(&state->data, &value);
    return value;
}

static void session_srand(unsigned seed) {
    emu_rand_state *state = emu_current_rand();
    if (state) emu_rand_seed(state, seed);
    else srand(seed);
}

#ifdef SLOT_JUMP

typedef struct relro_span {
    uintptr_t base, start, end;
} relro_span;

static int find_relro(struct dl_phdr_info *info, size_t size, void *arg) {
    relro_span *span = arg;
    if (info->dlpi_addr != span->base) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            span->start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            span->end = span->start + info->dlpi_phdr[i].p_memsz;
        }
    }
    return 1;
}

/* glibc relocates the dynamic section's addresses in place on most architectures, not on all */
static uintptr_t dynamic_address(const struct link_map *map, ElfW(Addr) value) {
    return value < map->l_addr ? map->l_addr + value : value;
}

/* Writes one GOT slot; a slot in the RELRO span is made writable for the write and read-only again. */
static int write_slot(void **slot, void *target, const relro_span *span) {
    uintptr_t at = (uintptr_t)slot;
    if (at >= span->start && at < span->end) {
        long page_size = sysconf(_SC_PAGESIZE);
        void *page = (void *)(at & ~((uintptr_t)page_size - 1));
        if (mprotect(page, (size_t)page_size, PROT_READ | PROT_WRITE) != 0) return -1;
        *slot = target;
        mprotect(page, (size_t)page_size, PROT_READ);
        return 0;
    }
    *slot = target;
    return 0;
}

static int bind_table(const struct link_map *map, const ElfW(Rela) *table, size_t bytes, const ElfW(Sym) *symbols,
                      const char *names, const relro_span *span) {
    int bound = 0;
    for (size_t i = 0; table && i < bytes / sizeof *table; i++) {
        unsigned long type = ELF64_R_TYPE(table[i].r_info);
        if (type != SLOT_JUMP && type != SLOT_DATA) continue;
        const char *name = names + symbols[ELF64_R_SYM(table[i].r_info)].st_name;
        void *target = !strcmp(name, "rand") ? (void *)session_rand : !strcmp(name, "srand") ? (void *)session_srand : NULL;
        if (!target) continue;
        if (write_slot((void **)(map->l_addr + table[i].r_offset), target, span) != 0) return -1;
        bound++;
    }
    return bound;
}

int emu_rand_bind(void *dl) {
    struct link_map *map = NULL;
    if (dlinfo(dl, RTLD_DI_LINKMAP, &map) != 0 || !map) return -1;
    const ElfW(Sym) *symbols = NULL;
    const char *names = NULL;
    const ElfW(Rela) *plt = NULL, *data = NULL;
    size_t plt_bytes = 0, data_bytes = 0;
    for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; entry++) {
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const void *)dynamic_address(map, entry->d_un.d_ptr); break;
        case DT_STRTAB: names = (const void *)dynamic_address(map, entry->d_un.d_ptr); break;
        case DT_JMPREL: plt = (const void *)dynamic_address(map, entry->d_un.d_ptr); break;
        case DT_PLTRELSZ: plt_bytes = entry->d_un.d_val; break;
        case DT_RELA: data = (const void *)dynamic_address(map, entry->d_un.d_ptr); break;
        case DT_RELASZ: data_bytes = entry->d_un.d_val; break;
        case DT_PLTREL: if (entry->d_un.d_val != DT_RELA) return -1; break;
        }
    }
    if (!symbols || !names) return 0;
    relro_span span = {map->l_addr, 0, 0};
    dl_iterate_phdr(find_relro, &span);
    int from_plt = bind_table(map, plt, plt_bytes, symbols, names, &span);
    int from_data = from_plt < 0 ? -1 : bind_table(map, data, data_bytes, symbols, names, &span);
    return from_data < 0 ? -1 : from_plt + from_data;
}

#else

int emu_rand_bind(void *dl) { return -1; }

#endif
