| =============================================================================
| studio_demo.s -- "StudioDemo-Genesis", a tiny original Mega Drive / Genesis
| homebrew game used to exercise Retro Integration Studio (RAM search, data.json
| variables, scenario reward/done).  Pure 68000 assembly, GNU as (MIT syntax,
| assembled with --register-prefix-optional).  In GNU as for m68k the '|'
| character starts a comment, so bit-ors in expressions are written with '+'.
|
| Gameplay (see README.md for the full RAM map and timings):
|   * D-pad moves a 16x16 sprite 1 px/frame, clamped to the 320x224 screen.
|   * B held: score +1 per frame.  C held: score +10 per frame (B+C: +11).
|     The score is kept as a 32-bit binary long AND as 8-digit packed BCD
|     (updated with ABCD); both saturate at 99,999,999.
|   * Lives start at 3.  A 300-frame timer counts down while playing; each
|     time it reaches 0 a life is lost.  At 0 lives the game is over.
|   * Game over: sprite and score freeze, backdrop turns red; a new press of
|     START restarts (score 0, lives 3, timer 300, sprite back to the start).
|   * Traps for memory-search tools: A held counts a tally kept one decimal
|     digit per byte (p1_tally, pad 1; p2_tally, pad 2), drawn with a fixed
|     trailing 0 ("1P ddddddd0", "2P ddddddd0").
|   * The whole game runs in the VBlank (level 6) interrupt, exactly once per
|     video frame; the main program just executes STOP in a loop.
| =============================================================================

| ---- hardware ---------------------------------------------------------------
        .equ    VDP_DATA,       0xC00000
        .equ    VDP_CTRL,       0xC00004
        .equ    PSG_PORT,       0xC00011
        .equ    IO_VERSION,     0xA10001
        .equ    IO_DATA1,       0xA10003        | controller port 1 data
        .equ    IO_CTRL1,       0xA10009        | controller port 1 control
        .equ    IO_DATA2,       0xA10005        | controller port 2 data
        .equ    IO_CTRL2,       0xA1000B        | controller port 2 control
        .equ    TMSS_REG,       0xA14000
        .equ    Z80_RESET,      0xA11200

| ---- VRAM layout ------------------------------------------------------------
        .equ    VRAM_TILES,     0x0000          | pattern data, 32 bytes per tile
        .equ    VRAM_WINDOW,    0xB000          | window name table (window unused)
        .equ    VRAM_PLANE_A,   0xC000          | plane A, 64x32 cells
        .equ    VRAM_PLANE_B,   0xE000          | plane B, 64x32 cells (left blank)
        .equ    VRAM_SAT,       0xF800          | sprite attribute table
        .equ    VRAM_HSCROLL,   0xFC00          | horizontal scroll table

        .equ    PLANE_W,        64              | plane width in cells

| ---- work RAM variables (68000 addresses; see README.md) ----------------------
        .equ    v_score,        0xFF0000        | long  binary score      (>u4)
        .equ    v_score_bcd,    0xFF0004        | 4 B   packed BCD score  (>d4)
        .equ    v_frame,        0xFF0008        | word  frame counter     (>u2)
        .equ    v_x,            0xFF000A        | word  sprite x, pixels  (>u2)
        .equ    v_y,            0xFF000C        | word  sprite y, pixels  (>u2)
        .equ    v_dx,           0xFF000E        | word  last dx -1/0/+1   (>i2)
        .equ    v_timer,        0xFF0010        | word  life timer        (>u2)
        .equ    v_lives,        0xFF0012        | byte  lives             (|u1)
        .equ    v_game_over,    0xFF0013        | byte  0 play, 1 over    (|u1)
        .equ    v_buttons,      0xFF0014        | byte  pad, active high  (|u1)
        .equ    v_buttons_prev, 0xFF0015        | byte  previous frame's pad
        .equ    v_dy,           0xFF0016        | word  last dy -1/0/+1   (>i2)
        .equ    v_started,      0xFF0018        | byte  1 once boot is done (|u1)
| traps for memory-search tools (added in bytes that were unused; README.md)
        .equ    v_buttons2,     0xFF0019        | byte  pad 2, active high  (|u1)
        .equ    v_p1_tally,     0xFF0020        | 6 B   A frames, pad 1, one digit per byte (>n6)
        .equ    v_p2_tally,     0xFF0026        | 6 B   A frames, pad 2, one digit per byte (>n6)

| ---- pad bits in v_buttons (1 = pressed) -----------------------------------
        .equ    BTN_UP,         0
        .equ    BTN_DOWN,       1
        .equ    BTN_LEFT,       2
        .equ    BTN_RIGHT,      3
        .equ    BTN_B,          4
        .equ    BTN_C,          5
        .equ    BTN_A,          6
        .equ    BTN_START,      7

| ---- game constants ---------------------------------------------------------
        .equ    START_LIVES,    3
        .equ    LIFE_FRAMES,    300             | frames of play per life
        .equ    X_START,        152             | (320 - 16) / 2
        .equ    Y_START,        104             | (224 - 16) / 2
        .equ    X_MAX,          304             | 320 - 16
        .equ    Y_MAX,          208             | 224 - 16
        .equ    SCORE_MAX,      99999999        | 8 BCD digits

| ---- tiles (index = VRAM tile number) ----------------------------------------
        .equ    T_BLANK,        0
        .equ    T_DIGIT0,       1               | digits 0..9 are tiles 1..10
        .equ    T_A,            11
        .equ    T_C,            12
        .equ    T_E,            13
        .equ    T_G,            14
        .equ    T_I,            15
        .equ    T_L,            16
        .equ    T_M,            17
        .equ    T_O,            18
        .equ    T_P,            19
        .equ    T_R,            20
        .equ    T_S,            21
        .equ    T_T,            22
        .equ    T_V,            23
        .equ    T_SPRITE,       24              | 4 tiles, 24..27
        .equ    NUM_TILES,      28
        .equ    STR_END,        0xFF
        .equ    TXT_ATTR,       0x8000          | HUD text: palette 0, high priority
                                                | (drawn in front of the sprite)

| ---- palette 0 entries ------------------------------------------------------
        .equ    PAL_BG_BLUE,    13              | backdrop while playing
        .equ    PAL_BG_RED,     14              | backdrop in game over
        .equ    PAL_BG_GREEN,   15              | backdrop while playing with B held

| ---- screen positions of the HUD (cell column, row) -------------------------
        .equ    CELL_SCORE_LBL, VRAM_PLANE_A + (1*PLANE_W + 2)*2
        .equ    CELL_SCORE_NUM, VRAM_PLANE_A + (1*PLANE_W + 8)*2
        .equ    CELL_LIVES_LBL, VRAM_PLANE_A + (1*PLANE_W + 30)*2
        .equ    CELL_LIVES_NUM, VRAM_PLANE_A + (1*PLANE_W + 36)*2
        .equ    CELL_P1_LBL,    VRAM_PLANE_A + (3*PLANE_W + 2)*2   | "1P" at row 3
        .equ    CELL_P1_NUM,    VRAM_PLANE_A + (3*PLANE_W + 5)*2   | 6 digits, cols 5-10
        .equ    CELL_P1_ZERO,   VRAM_PLANE_A + (3*PLANE_W + 11)*2  | fixed "0"
        .equ    CELL_P2_LBL,    VRAM_PLANE_A + (3*PLANE_W + 27)*2  | "2P" at row 3
        .equ    CELL_P2_NUM,    VRAM_PLANE_A + (3*PLANE_W + 30)*2  | 6 digits, cols 30-35
        .equ    CELL_P2_ZERO,   VRAM_PLANE_A + (3*PLANE_W + 36)*2  | fixed "0"
        .equ    CELL_GAME_OVER, VRAM_PLANE_A + (12*PLANE_W + 15)*2
        .equ    CELL_PRESS,     VRAM_PLANE_A + (14*PLANE_W + 14)*2

| move.l the VDP "VRAM write at addr" command to dst
        .macro  vram_write addr, dst
        move.l  #(0x40000000 + (((\addr) & 0x3FFF) << 16) + ((\addr) >> 14)), \dst
        .endm

| a header text field: the text, padded with spaces to exactly len bytes
        .macro  hdr_text len, text
9:      .ascii  "\text"
        .fill   (\len) - (. - 9b), 1, 0x20
        .endm

        .text
| =============================================================================
| 0x000: 68000 exception vectors
| =============================================================================
        .org    0x000
vectors:
        dc.l    0x01000000              | 0: initial SSP (stack grows down from top of RAM)
        dc.l    entry                   | 1: initial PC
        .rept   22                      | 2-23: bus/address error, illegal, ... reserved
        dc.l    exc_fatal
        .endr
        dc.l    int_ignore              | 24: spurious interrupt
        dc.l    int_ignore              | 25: level 1
        dc.l    int_ignore              | 26: level 2 (external)
        dc.l    int_ignore              | 27: level 3
        dc.l    int_ignore              | 28: level 4 (HBlank, disabled)
        dc.l    int_ignore              | 29: level 5
        dc.l    vint_handler            | 30: level 6 (VBlank)
        dc.l    int_ignore              | 31: level 7
        .rept   32                      | 32-63: TRAP #0-15, reserved
        dc.l    exc_fatal
        .endr

| =============================================================================
| 0x100: cartridge header.  build.py fills in the checksum (0x18E) and the
| ROM end address (0x1A4) after padding the image.
| =============================================================================
        .org    0x100
        hdr_text 16, "SEGA MEGA DRIVE "                     | 0x100 system
        hdr_text 16, "(C)STDO 2025.JAN"                     | 0x110 copyright/date
        hdr_text 48, "STUDIODEMO GENESIS"                   | 0x120 domestic name
        hdr_text 48, "STUDIODEMO GENESIS"                   | 0x150 overseas name
        hdr_text 14, "GM 00000000-00"                       | 0x180 type/serial
        dc.w    0x0000                                      | 0x18E checksum (build.py)
        hdr_text 16, "J"                                    | 0x190 I/O: 3-button pad
        dc.l    0x00000000                                  | 0x1A0 ROM start
        dc.l    0x00000000                                  | 0x1A4 ROM end (build.py)
        dc.l    0x00FF0000                                  | 0x1A8 RAM start
        dc.l    0x00FFFFFF                                  | 0x1AC RAM end
        hdr_text 12, ""                                     | 0x1B0 no SRAM
        hdr_text 12, ""                                     | 0x1BC no modem
        hdr_text 40, "ORIGINAL HOMEBREW TEST ROM"           | 0x1C8 memo
        hdr_text 16, "JUE"                                  | 0x1F0 regions

| =============================================================================
| 0x200: boot
| =============================================================================
        .org    0x200
entry:
        move.w  #0x2700, sr             | supervisor, all interrupts masked

        | TMSS: consoles with a non-zero hardware version must see "SEGA"
        move.b  IO_VERSION, d0
        andi.b  #0x0F, d0
        beq.s   1f
        move.l  #0x53454741, TMSS_REG   | 'SEGA'
1:
        | Clear all 64 KiB of work RAM.  Nothing has been pushed yet, so the
        | stack area is cleared too; every variable starts at a known value.
        lea     0xFF0000, a0
        moveq   #0, d0
        move.w  #(0x10000 / 32) - 1, d1
2:      move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        move.l  d0, (a0)+
        dbf     d1, 2b
        movea.l #0x01000000, sp

        | Keep the Z80 in reset (no sound program) and silence the PSG.
        move.w  #0x0000, Z80_RESET
        move.b  #0x9F, PSG_PORT
        move.b  #0xBF, PSG_PORT
        move.b  #0xDF, PSG_PORT
        move.b  #0xFF, PSG_PORT

        | Controller port 1: TH is an output (3-button pad select line), high.
        move.b  #0x40, IO_CTRL1
        move.b  #0x40, IO_DATA1
        | Controller port 2: the same, for the second player's pad.
        move.b  #0x40, IO_CTRL2
        move.b  #0x40, IO_DATA2

        | VDP registers
        lea     VDP_CTRL, a0
        lea     VDP_DATA, a1
        move.w  (a0), d0                | reset the control port write latch
        lea     vdp_init_regs(pc), a2
        moveq   #((vdp_init_regs_end - vdp_init_regs) / 2) - 1, d1
3:      move.w  (a2)+, (a0)
        dbf     d1, 3b

        | Clear all 64 KiB of VRAM (name tables, sprite table, scroll table).
        vram_write 0x0000, (a0)
        moveq   #0, d0
        move.w  #(0x10000 / 32) - 1, d1
4:      move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        move.l  d0, (a1)
        dbf     d1, 4b

        | CRAM: palette 0 from ROM, palettes 1-3 black.
        move.l  #0xC0000000, (a0)       | CRAM write at 0
        lea     palette0(pc), a2
        moveq   #15, d1
5:      move.w  (a2)+, (a1)
        dbf     d1, 5b
        moveq   #47, d1
5:      move.w  d0, (a1)
        dbf     d1, 5b

        | VSRAM: both planes' vertical scroll = 0.
        move.l  #0x40000010, (a0)       | VSRAM write at 0
        moveq   #39, d1
6:      move.w  d0, (a1)
        dbf     d1, 6b

        | Tiles: blank, digits, letters, sprite.
        vram_write VRAM_TILES, (a0)
        lea     tiles(pc), a2
        move.w  #(NUM_TILES * 8) - 1, d1
7:      move.l  (a2)+, (a1)
        dbf     d1, 7b

        | Static HUD labels.
        moveq   #1, d3
        lea     str_score(pc), a2
        vram_write CELL_SCORE_LBL, d0
        bsr     draw_text
        lea     str_lives(pc), a2
        vram_write CELL_LIVES_LBL, d0
        bsr     draw_text
        lea     str_1p(pc), a2
        vram_write CELL_P1_LBL, d0
        bsr     draw_text
        lea     str_zero(pc), a2
        vram_write CELL_P1_ZERO, d0
        bsr     draw_text
        lea     str_2p(pc), a2
        vram_write CELL_P2_LBL, d0
        bsr     draw_text
        lea     str_zero(pc), a2
        vram_write CELL_P2_ZERO, d0
        bsr     draw_text

        | Initial game state, and draw it once before the display comes on.
        bsr     reset_game
        bsr     draw_frame

        | Display and VBlank interrupt on.  The VDP latched a VBlank interrupt
        | request during a blank that happened while the interrupt was
        | disabled; it is taken as soon as the CPU mask is lowered, and
        | v_started = 0 makes the handler ignore it.  From then on the handler
        | runs exactly once per frame, at the start of every VBlank.
        move.w  #0x8164, (a0)           | reg 1: display on, VINT on, MD mode
        move.w  #0x2000, sr             | stale request (if any) is taken here
        move.b  #1, v_started

main_loop:
        stop    #0x2000                 | everything happens in vint_handler
        bra.s   main_loop

| =============================================================================
| VBlank interrupt: one game frame.
| =============================================================================
vint_handler:
        tst.b   v_started               | not during boot (see entry)
        beq.s   int_ignore
        movem.l d0-d3/a0-a2, -(sp)
        addq.w  #1, v_frame             | counts every frame, also in game over
        bsr     read_pad
        bsr     update_game
        bsr     draw_frame
        move.b  v_buttons, v_buttons_prev
        movem.l (sp)+, d0-d3/a0-a2
        rte

int_ignore:
        rte

exc_fatal:
        move.w  #0x2700, sr             | CPU exception: stop here for good
9:      bra.s   9b

| -----------------------------------------------------------------------------
| read_pad: 3-button pad on port 1 -> v_buttons = S A C B R L D U (1 = pressed),
| and the pad on port 2 -> v_buttons2 (same bits).
| -----------------------------------------------------------------------------
read_pad:
        lea     IO_DATA2, a0
        bsr.s   read_pad_port
        move.b  d0, v_buttons2
        lea     IO_DATA1, a0
        bsr.s   read_pad_port
        move.b  d0, v_buttons
        rts

| read_pad_port: a0 = the port's data register -> d0.b = S A C B R L D U
read_pad_port:
        move.b  #0x40, (a0)             | TH = 1
        nop
        nop
        move.b  (a0), d0                | ? 1 C B R L D U  (active low)
        move.b  #0x00, (a0)             | TH = 0
        nop
        nop
        move.b  (a0), d1                | ? 0 S A 0 0 D U  (active low)
        move.b  #0x40, (a0)             | TH back to 1
        andi.b  #0x3F, d0
        andi.b  #0x30, d1
        add.b   d1, d1
        add.b   d1, d1                  | S -> bit 7, A -> bit 6
        or.b    d1, d0
        not.b   d0
        rts

| -----------------------------------------------------------------------------
| update_game: advance the game state by one frame from v_buttons.
| -----------------------------------------------------------------------------
update_game:
        move.b  v_buttons, d0
        tst.b   v_game_over
        bne     game_over_frame

        | --- horizontal movement: dx = (RIGHT) - (LEFT), x clamped to 0..X_MAX
        moveq   #0, d2
        btst    #BTN_LEFT, d0
        beq.s   1f
        subq.w  #1, d2
1:      btst    #BTN_RIGHT, d0
        beq.s   1f
        addq.w  #1, d2
1:      move.w  d2, v_dx
        move.w  v_x, d3
        add.w   d2, d3
        bpl.s   1f
        moveq   #0, d3
1:      cmpi.w  #X_MAX, d3
        ble.s   1f
        move.w  #X_MAX, d3
1:      move.w  d3, v_x

        | --- vertical movement: dy = (DOWN) - (UP), y clamped to 0..Y_MAX
        moveq   #0, d2
        btst    #BTN_UP, d0
        beq.s   1f
        subq.w  #1, d2
1:      btst    #BTN_DOWN, d0
        beq.s   1f
        addq.w  #1, d2
1:      move.w  d2, v_dy
        move.w  v_y, d3
        add.w   d2, d3
        bpl.s   1f
        moveq   #0, d3
1:      cmpi.w  #Y_MAX, d3
        ble.s   1f
        move.w  #Y_MAX, d3
1:      move.w  d3, v_y

        | --- score: B = +1, C = +10 (binary long and packed BCD in step)
        btst    #BTN_B, d0
        beq.s   1f
        addq.l  #1, v_score
        lea     v_score_bcd + 4, a0
        lea     bcd_one + 4(pc), a1
        bsr     bcd_add4
1:      btst    #BTN_C, d0
        beq.s   1f
        moveq   #10, d1
        add.l   d1, v_score
        lea     v_score_bcd + 4, a0
        lea     bcd_ten + 4(pc), a1
        bsr     bcd_add4
1:      cmpi.l  #SCORE_MAX, v_score     | saturate both at 99,999,999
        bls.s   1f
        move.l  #SCORE_MAX, v_score
        move.l  #0x99999999, v_score_bcd
1:
        | --- tallies (traps): A held = +1, one decimal digit per byte
        btst    #BTN_A, d0
        beq.s   1f
        lea     v_p1_tally + 6, a0
        bsr     tally_inc
1:      btst    #BTN_A, v_buttons2
        beq.s   1f
        lea     v_p2_tally + 6, a0
        bsr     tally_inc
1:
        | --- life timer: a life is lost every LIFE_FRAMES frames of play
        subq.w  #1, v_timer
        bne.s   9f
        move.w  #LIFE_FRAMES, v_timer
        subq.b  #1, v_lives
        bne.s   9f
        move.b  #1, v_game_over
9:      rts

game_over_frame:
        clr.w   v_dx                    | sprite is frozen
        clr.w   v_dy
        move.b  v_buttons_prev, d1
        not.b   d1
        and.b   d0, d1                  | buttons newly pressed this frame
        btst    #BTN_START, d1
        beq.s   9f
        bra     reset_game
9:      rts

| reset_game: the state at power-on and after a restart (frame is kept).
reset_game:
        clr.l   v_score
        clr.l   v_score_bcd
        move.w  #X_START, v_x
        move.w  #Y_START, v_y
        clr.w   v_dx
        clr.w   v_dy
        move.w  #LIFE_FRAMES, v_timer
        move.b  #START_LIVES, v_lives
        clr.b   v_game_over
        clr.l   v_p1_tally              | both tallies: 12 bytes
        clr.l   v_p1_tally + 4
        clr.l   v_p1_tally + 8
        rts

| tally_inc: +1 to a 6-byte number kept one decimal digit per byte (most
| significant first); a0 points one past its last byte.  Saturates at 999999.
| Uses d1 and a0.
tally_inc:
        moveq   #5, d1
1:      addq.b  #1, -(a0)
        cmpi.b  #10, (a0)
        bcs.s   9f                      | below 10: no carry, done
        clr.b   (a0)
        dbf     d1, 1b
        moveq   #5, d1                  | carried out of the top digit:
2:      move.b  #9, (a0)+               | it was 999999, so put it back
        dbf     d1, 2b
9:      rts

| bcd_add4: 4-byte packed BCD add, (a0-4..a0-1) += (a1-4..a1-1).
| a0 and a1 point one past the last (least significant) byte.
bcd_add4:
        move.w  #0, ccr                 | X = 0 (ABCD carry in), Z = 0
        abcd    -(a1), -(a0)
        abcd    -(a1), -(a0)
        abcd    -(a1), -(a0)
        abcd    -(a1), -(a0)
        rts

| -----------------------------------------------------------------------------
| draw_frame: push the current state to the VDP (run inside VBlank).
| -----------------------------------------------------------------------------
draw_frame:
        lea     VDP_CTRL, a0
        lea     VDP_DATA, a1

        | backdrop colour: red in game over, green while B is held, else blue
        move.w  #0x8700 + PAL_BG_RED, d0
        tst.b   v_game_over
        bne.s   1f
        move.w  #0x8700 + PAL_BG_BLUE, d0
        btst    #BTN_B, v_buttons
        beq.s   1f
        move.w  #0x8700 + PAL_BG_GREEN, d0
1:      move.w  d0, (a0)

        | sprite 0: 2x2 cells, end of the sprite list
        vram_write VRAM_SAT, (a0)
        move.w  v_y, d0
        addi.w  #128, d0
        move.w  d0, (a1)                | y + 128
        move.w  #0x0500, (a1)           | size 2x2 cells, link 0
        move.w  #T_SPRITE, (a1)         | palette 0, low priority, no flip
        move.w  v_x, d0
        addi.w  #128, d0
        move.w  d0, (a1)                | x + 128

        | score: the 8 BCD digits, most significant first
        vram_write CELL_SCORE_NUM, (a0)
        lea     v_score_bcd, a2
        moveq   #3, d2
2:      move.b  (a2)+, d0
        move.b  d0, d1
        lsr.b   #4, d1
        andi.w  #0x000F, d1
        addi.w  #TXT_ATTR + T_DIGIT0, d1
        move.w  d1, (a1)
        andi.w  #0x000F, d0
        addi.w  #TXT_ATTR + T_DIGIT0, d0
        move.w  d0, (a1)
        dbf     d2, 2b

        | lives digit
        vram_write CELL_LIVES_NUM, (a0)
        moveq   #0, d0
        move.b  v_lives, d0
        addi.w  #TXT_ATTR + T_DIGIT0, d0
        move.w  d0, (a1)

        | the two tallies, 6 digits each (the trailing "0" is static)
        vram_write CELL_P1_NUM, (a0)
        lea     v_p1_tally, a2
        bsr.s   draw_tally
        vram_write CELL_P2_NUM, (a0)
        bsr.s   draw_tally              | a2 now points at v_p2_tally

        | "GAME OVER" / "PRESS START", shown only in game over
        move.b  v_game_over, d3
        lea     str_game_over(pc), a2
        vram_write CELL_GAME_OVER, d0
        bsr.s   draw_text
        lea     str_press_start(pc), a2
        vram_write CELL_PRESS, d0
        | (falls through into draw_text)

| draw_text: a2 = string of tile numbers ending in STR_END, d0 = VRAM write
| command, d3.b = 0 to draw blanks instead of the text.  Uses a0/a1 = VDP.
draw_text:
        move.l  d0, (a0)
1:      moveq   #0, d1
        move.b  (a2)+, d1
        cmpi.b  #STR_END, d1
        beq.s   3f
        tst.b   d3
        bne.s   2f
        moveq   #T_BLANK, d1
2:      ori.w   #TXT_ATTR, d1
        move.w  d1, (a1)
        bra.s   1b
3:      rts

| draw_tally: 6 digits (one per byte) from a2 (advanced past them) to the VDP
| data port a1, whose write address is already set.  Uses d1/d2.
draw_tally:
        moveq   #5, d2
1:      moveq   #0, d1
        move.b  (a2)+, d1
        addi.w  #TXT_ATTR + T_DIGIT0, d1
        move.w  d1, (a1)
        dbf     d2, 1b
        rts

| =============================================================================
| read-only data
| =============================================================================
        .balign 2
vdp_init_regs:
        dc.w    0x8004                  | 0: no HBlank interrupt
        dc.w    0x8104                  | 1: display off, VINT off, DMA off, V28, MD mode
        dc.w    0x8200 + (VRAM_PLANE_A >> 10)   | 2: plane A name table
        dc.w    0x8300 + (VRAM_WINDOW >> 10)    | 3: window name table
        dc.w    0x8400 + (VRAM_PLANE_B >> 13)   | 4: plane B name table
        dc.w    0x8500 + (VRAM_SAT >> 9)        | 5: sprite attribute table
        dc.w    0x8600                  | 6: unused
        dc.w    0x8700 + PAL_BG_BLUE    | 7: backdrop = palette 0 entry 13
        dc.w    0x8800                  | 8: unused
        dc.w    0x8900                  | 9: unused
        dc.w    0x8AFF                  | 10: HBlank counter (interrupt is off)
        dc.w    0x8B00                  | 11: full-screen scrolling, no ext int
        dc.w    0x8C81                  | 12: H40 (320 px), no interlace, no S/H
        dc.w    0x8D00 + (VRAM_HSCROLL >> 10)   | 13: horizontal scroll table
        dc.w    0x8E00                  | 14: unused
        dc.w    0x8F02                  | 15: auto-increment 2
        dc.w    0x9001                  | 16: planes 64x32 cells
        dc.w    0x9100                  | 17: window H position: none
        dc.w    0x9200                  | 18: window V position: none
        dc.w    0x9300                  | 19-23: DMA registers cleared
        dc.w    0x9400
        dc.w    0x9500
        dc.w    0x9600
        dc.w    0x9700
vdp_init_regs_end:

| palette 0, colours are 0000BBB0GGG0RRR0
palette0:
        dc.w    0x0000                  | 0: transparent / black
        dc.w    0x0EEE                  | 1: white (font)
        dc.w    0x00EE                  | 2: yellow (sprite body)
        dc.w    0x006E                  | 3: orange (sprite outline)
        dc.w    0x0222                  | 4: dark grey (sprite face)
        dc.w    0x0000, 0x0000, 0x0000, 0x0000  | 5-8: unused
        dc.w    0x0000, 0x0000, 0x0000, 0x0000  | 9-12: unused
        dc.w    0x0600                  | 13: dark blue backdrop (playing)
        dc.w    0x000A                  | 14: red backdrop (game over)
        dc.w    0x00A0                  | 15: green backdrop (B held)

bcd_one:
        dc.b    0x00, 0x00, 0x00, 0x01
bcd_ten:
        dc.b    0x00, 0x00, 0x00, 0x10

str_score:
        dc.b    T_S, T_C, T_O, T_R, T_E, STR_END
str_lives:
        dc.b    T_L, T_I, T_V, T_E, T_S, STR_END
str_game_over:
        dc.b    T_G, T_A, T_M, T_E, T_BLANK, T_O, T_V, T_E, T_R, STR_END
str_press_start:
        dc.b    T_P, T_R, T_E, T_S, T_S, T_BLANK, T_S, T_T, T_A, T_R, T_T, STR_END
str_1p:
        dc.b    T_DIGIT0 + 1, T_P, STR_END
str_2p:
        dc.b    T_DIGIT0 + 2, T_P, STR_END
str_zero:
        dc.b    T_DIGIT0, STR_END

| -----------------------------------------------------------------------------
| Tiles: 8x8 pixels, 4 bits per pixel, one long per row (each hex digit is a
| pixel's palette index).  Order must match the T_* constants above.
| -----------------------------------------------------------------------------
        .balign 4
tiles:
tile_blank:                             | tile 0
        .rept   8
        dc.l    0x00000000
        .endr
| tiles 1-10: digits 0-9; tiles 11-23: letters A C E G I L M O P R S T V
glyph_0:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01001100    | .1..11..
        dc.l    0x01010100    | .1.1.1..
        dc.l    0x01100100    | .11..1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_1:
        dc.l    0x00010000    | ...1....
        dc.l    0x00110000    | ..11....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_2:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x00000100    | .....1..
        dc.l    0x00001000    | ....1...
        dc.l    0x00010000    | ...1....
        dc.l    0x00100000    | ..1.....
        dc.l    0x01111100    | .11111..
        dc.l    0x00000000    | ........
glyph_3:
        dc.l    0x01111100    | .11111..
        dc.l    0x00001000    | ....1...
        dc.l    0x00010000    | ...1....
        dc.l    0x00001000    | ....1...
        dc.l    0x00000100    | .....1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_4:
        dc.l    0x00001000    | ....1...
        dc.l    0x00011000    | ...11...
        dc.l    0x00101000    | ..1.1...
        dc.l    0x01001000    | .1..1...
        dc.l    0x01111100    | .11111..
        dc.l    0x00001000    | ....1...
        dc.l    0x00001000    | ....1...
        dc.l    0x00000000    | ........
glyph_5:
        dc.l    0x01111100    | .11111..
        dc.l    0x01000000    | .1......
        dc.l    0x01111000    | .1111...
        dc.l    0x00000100    | .....1..
        dc.l    0x00000100    | .....1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_6:
        dc.l    0x00011000    | ...11...
        dc.l    0x00100000    | ..1.....
        dc.l    0x01000000    | .1......
        dc.l    0x01111000    | .1111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_7:
        dc.l    0x01111100    | .11111..
        dc.l    0x00000100    | .....1..
        dc.l    0x00001000    | ....1...
        dc.l    0x00010000    | ...1....
        dc.l    0x00100000    | ..1.....
        dc.l    0x00100000    | ..1.....
        dc.l    0x00100000    | ..1.....
        dc.l    0x00000000    | ........
glyph_8:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_9:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111100    | ..1111..
        dc.l    0x00000100    | .....1..
        dc.l    0x00001000    | ....1...
        dc.l    0x00110000    | ..11....
        dc.l    0x00000000    | ........
glyph_A:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01111100    | .11111..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00000000    | ........
glyph_C:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_E:
        dc.l    0x01111100    | .11111..
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01111000    | .1111...
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01111100    | .11111..
        dc.l    0x00000000    | ........
glyph_G:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000000    | .1......
        dc.l    0x01011100    | .1.111..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111100    | ..1111..
        dc.l    0x00000000    | ........
glyph_I:
        dc.l    0x00111000    | ..111...
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_L:
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01111100    | .11111..
        dc.l    0x00000000    | ........
glyph_M:
        dc.l    0x01000100    | .1...1..
        dc.l    0x01101100    | .11.11..
        dc.l    0x01010100    | .1.1.1..
        dc.l    0x01010100    | .1.1.1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00000000    | ........
glyph_O:
        dc.l    0x00111000    | ..111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00111000    | ..111...
        dc.l    0x00000000    | ........
glyph_P:
        dc.l    0x01111000    | .1111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01111000    | .1111...
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x00000000    | ........
glyph_R:
        dc.l    0x01111000    | .1111...
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01111000    | .1111...
        dc.l    0x01010000    | .1.1....
        dc.l    0x01001000    | .1..1...
        dc.l    0x01000100    | .1...1..
        dc.l    0x00000000    | ........
glyph_S:
        dc.l    0x00111100    | ..1111..
        dc.l    0x01000000    | .1......
        dc.l    0x01000000    | .1......
        dc.l    0x00111000    | ..111...
        dc.l    0x00000100    | .....1..
        dc.l    0x00000100    | .....1..
        dc.l    0x01111000    | .1111...
        dc.l    0x00000000    | ........
glyph_T:
        dc.l    0x01111100    | .11111..
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00010000    | ...1....
        dc.l    0x00000000    | ........
glyph_V:
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x01000100    | .1...1..
        dc.l    0x00101000    | ..1.1...
        dc.l    0x00010000    | ...1....
        dc.l    0x00000000    | ........
| The sprite, a 16x16 smiley (palette 0: 2 yellow, 3 orange, 4 dark grey):
|   ...3333333333...
|   ..322222222223..
|   .32222222222223.
|   3222222222222223
|   3222442222442223
|   3222442222442223
|   3222442222442223
|   3222222222222223
|   3222222222222223
|   3224222222224223
|   3222422222242223
|   3222244444422223
|   3222222222222223
|   .32222222222223.
|   ..322222222223..
|   ...3333333333...
| A 2x2-cell sprite takes its tiles column by column: TL, BL, TR, BR.
tile_sprite:
| sprite tile: top-left
        dc.l    0x00033333    | ...33333
        dc.l    0x00322222    | ..322222
        dc.l    0x03222222    | .3222222
        dc.l    0x32222222    | 32222222
        dc.l    0x32224422    | 32224422
        dc.l    0x32224422    | 32224422
        dc.l    0x32224422    | 32224422
        dc.l    0x32222222    | 32222222
| sprite tile: bottom-left
        dc.l    0x32222222    | 32222222
        dc.l    0x32242222    | 32242222
        dc.l    0x32224222    | 32224222
        dc.l    0x32222444    | 32222444
        dc.l    0x32222222    | 32222222
        dc.l    0x03222222    | .3222222
        dc.l    0x00322222    | ..322222
        dc.l    0x00033333    | ...33333
| sprite tile: top-right
        dc.l    0x33333000    | 33333...
        dc.l    0x22222300    | 222223..
        dc.l    0x22222230    | 2222223.
        dc.l    0x22222223    | 22222223
        dc.l    0x22442223    | 22442223
        dc.l    0x22442223    | 22442223
        dc.l    0x22442223    | 22442223
        dc.l    0x22222223    | 22222223
| sprite tile: bottom-right
        dc.l    0x22222223    | 22222223
        dc.l    0x22224223    | 22224223
        dc.l    0x22242223    | 22242223
        dc.l    0x44422223    | 44422223
        dc.l    0x22222223    | 22222223
        dc.l    0x22222230    | 2222223.
        dc.l    0x22222300    | 222223..
        dc.l    0x33333000    | 33333...

tiles_end:

| assemble-time checks that the tile data matches the T_* numbers
        .macro  check_tile label, index
        .if (\label - tiles) != (\index) * 32
        .error "tile \label is not at tile number \index"
        .endif
        .endm
        .if (tiles_end - tiles) != NUM_TILES * 32
        .error "tile count does not match NUM_TILES"
        .endif
        check_tile glyph_0, T_DIGIT0
        check_tile glyph_9, T_DIGIT0 + 9
        check_tile glyph_A, T_A
        check_tile glyph_C, T_C
        check_tile glyph_E, T_E
        check_tile glyph_G, T_G
        check_tile glyph_I, T_I
        check_tile glyph_L, T_L
        check_tile glyph_M, T_M
        check_tile glyph_O, T_O
        check_tile glyph_P, T_P
        check_tile glyph_R, T_R
        check_tile glyph_S, T_S
        check_tile glyph_T, T_T
        check_tile glyph_V, T_V
        check_tile tile_sprite, T_SPRITE
