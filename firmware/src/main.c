/* A COUNTS board: 28 load cells weighed every HX711 conversion (80 per second), spoken for over
 * the USB serial link in the protocol of hardware_docs/protocol.md. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/delay.h>

#include "board.h"
#include "frame.h"
#include "hx711.h"
#include "leds.h"
#include "sensing.h"
#include "uart.h"

enum {
    MSG_HELLO_REQUEST = 0x01, MSG_SNAPSHOT_REQUEST = 0x02, MSG_PING = 0x03, MSG_SET_ZONE_LEDS = 0x04,
    MSG_DICE_REQUEST = 0x05, MSG_SET_STACKS = 0x06,
    MSG_HELLO = 0x81, MSG_SNAPSHOT = 0x82, MSG_ZONE_CHANGE = 0x83, MSG_PONG = 0x84, MSG_ACK = 0x85,
};
enum { ACK_OK = 0, ACK_UNSUPPORTED = 1, ACK_BAD_REQUEST = 2 };
enum { FEATURE_ZONES = 1, FEATURE_ZONE_LEDS = 4 };
#define CAPABILITY_COUNTS 1
#define SNAPSHOT_PAYLOAD (4 + ZONE_COUNT)
/* The longest host frame taken whole: a SET_STACKS of 28 stacks of 30 (answered UNSUPPORTED);
 * a longer run between delimiters is garbage to this board (protocol.md). */
#define RX_PIECE_MAX COBS_MAX(FRAME_BODY_MAX(1 + ZONE_COUNT * 5))
/* A reading not ready this long after the last: some HX711 is missing; scan without it. */
#define SCAN_TIMEOUT_MS 50

static volatile uint32_t milliseconds;
static zone_sense_t zones[ZONE_COUNT];
static int32_t raw[ZONE_COUNT];
static uint16_t scan_number;
static uint8_t next_seq;
static uint8_t streaming;
static uint32_t next_heartbeat;
static uint32_t board_id;
static uint8_t missing_zones;      /* converters not ready at the last scan: the LED says so */
static uint32_t tares_to_keep;     /* a bit a zone: its tare moved from the one EEPROM keeps */
static uint8_t weighed;            /* tared (and calibrated): until then the counts are not known */

static uint8_t rx_piece[RX_PIECE_MAX];
static uint16_t rx_length;
static uint8_t rx_overflow;
static uint8_t tx_body[FRAME_BODY_MAX(SNAPSHOT_PAYLOAD)];
static uint8_t tx_wire[FRAME_WIRE_MAX(SNAPSHOT_PAYLOAD)];

ISR(TIMER0_COMPA_vect)
{
    milliseconds++;
}

static uint32_t now_ms(void)
{
    uint8_t sreg = SREG;
    cli();
    uint32_t now = milliseconds;
    SREG = sreg;
    return now;
}

static void send(uint8_t seq, uint8_t type, const uint8_t *payload, uint16_t length)
{
    uart_write(tx_wire, frame_encode(seq, type, payload, length, tx_body, tx_wire));
}

static void send_next(uint8_t type, const uint8_t *payload, uint16_t length)
{
    send(next_seq++, type, payload, length);
}

static void send_hello(void)
{
    const uint8_t payload[13] = {
        FIRMWARE_MAJOR, FIRMWARE_MINOR, FIRMWARE_PATCH, FEATURE_ZONES | FEATURE_ZONE_LEDS,
        CAPABILITY_COUNTS, ZONE_COUNT, MAX_STACK, HEARTBEAT_MS >> 8, HEARTBEAT_MS & 0xFF,
        (uint8_t)(board_id >> 24), (uint8_t)(board_id >> 16), (uint8_t)(board_id >> 8), (uint8_t)board_id,
    };
    next_seq = 0;
    send_next(MSG_HELLO, payload, sizeof payload);
}

static void send_snapshot(void)
{
    uint8_t payload[SNAPSHOT_PAYLOAD];
    payload[0] = (uint8_t)(scan_number >> 8);
    payload[1] = (uint8_t)scan_number;
    payload[2] = CAPABILITY_COUNTS;
    payload[3] = ZONE_COUNT;
    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        payload[4 + zone] = zones[zone].count;
    }
    send_next(MSG_SNAPSHOT, payload, sizeof payload);
}

static void send_zone_change(uint8_t zone)
{
    const uint8_t payload[5] = {
        (uint8_t)(scan_number >> 8), (uint8_t)scan_number, CAPABILITY_COUNTS, zone + 1, zones[zone].count,
    };
    send_next(MSG_ZONE_CHANGE, payload, sizeof payload);
}

static void send_ack(uint8_t request_seq, uint8_t status)
{
    const uint8_t payload[2] = {request_seq, status};
    send_next(MSG_ACK, payload, sizeof payload);
}

static uint32_t u32_at(const uint8_t *bytes)
{
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static void answer(const frame_t *frame)
{
    if (frame->version != PROTOCOL_VERSION) {
        return;  /* a host of another version: it drops the link when it reads our HELLO */
    }
    uint8_t empty = frame->length == 0, word = frame->length == 4;
    switch (frame->type) {
    case MSG_HELLO_REQUEST:
        if (!empty) {
            break;  /* not a HELLO_REQUEST this board can trust: the host asks again */
        }
        send_hello();
        streaming = 1;
        next_heartbeat = now_ms() + HEARTBEAT_MS;
        return;
    case MSG_SNAPSHOT_REQUEST:
        if (empty) {
            send_snapshot();
            return;
        }
        break;
    case MSG_PING:
        if (word) {
            send_next(MSG_PONG, frame->payload, 4);
            return;
        }
        break;
    case MSG_SET_ZONE_LEDS:
        if (word) {
            leds_set_zones(u32_at(frame->payload) & 0x0FFFFFFFUL);
            send_ack(frame->seq, ACK_OK);
            return;
        }
        break;
    case MSG_DICE_REQUEST:
    case MSG_SET_STACKS:
        /* a roll-button board has no dice; a COUNTS board no stack order */
        send_ack(frame->seq, ACK_UNSUPPORTED);
        return;
    default:
        return;  /* a type this board does not know, or a board's message echoed back */
    }
    send_ack(frame->seq, ACK_BAD_REQUEST);
}

/* Splits the received bytes at each 00 and judges each piece: resynchronising after garbage
 * costs only the garbage. */
static void take_input(void)
{
    int16_t byte;
    while ((byte = uart_read()) >= 0) {
        if (byte != 0) {
            if (rx_length < sizeof rx_piece) {
                rx_piece[rx_length++] = (uint8_t)byte;
            } else {
                rx_overflow = 1;
            }
            continue;
        }
        frame_t frame;
        /* while taring nothing is answered: a SNAPSHOT then would say every zone empty (the host
         * asks again, as it does a board still starting) */
        if (weighed && rx_length > 0 && !rx_overflow && frame_decode(rx_piece, rx_length, &frame) == FRAME_OK) {
            answer(&frame);
        }
        rx_length = 0;
        rx_overflow = 0;
    }
}

static void wait_ready(void)
{
    uint32_t start = now_ms();
    while (!hx711_all_ready() && now_ms() - start < SCAN_TIMEOUT_MS) {
        take_input();
    }
}

static uint8_t *kept_tare_at(uint8_t zone)
{
    return (uint8_t *)(EEPROM_TARES + 5 * zone);
}

static uint8_t tare_check(uint32_t tare)
{
    return (uint8_t)(tare ^ tare >> 8 ^ tare >> 16 ^ tare >> 24) ^ TARE_CHECK;
}

static void tare_all(void)
{
    static int32_t sums[ZONE_COUNT];
    for (uint8_t sample = 0; sample < TARE_SAMPLES; sample++) {
        wait_ready();
        hx711_read(raw);
        for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
            sums[zone] += raw[zone];
        }
    }
    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        uint8_t *at = kept_tare_at(zone);
        uint32_t kept = eeprom_read_dword((const uint32_t *)at);
        if (sensing_power_up(&zones[zone], sums[zone], TARE_SAMPLES, (int32_t)kept,
                             eeprom_read_byte(at + 4) == tare_check(kept))) {
            eeprom_update_dword((uint32_t *)at, (uint32_t)zones[zone].tare);
            eeprom_update_byte(at + 4, tare_check((uint32_t)zones[zone].tare));
        }
    }
}

/* A re-tare to keep, a byte at a time and only when the EEPROM is ready: a byte takes 3.4 ms to
 * write, and the scan loop must not wait for it. */
static void keep_tares(void)
{
    if (!tares_to_keep || !eeprom_is_ready()) {
        return;
    }
    uint8_t zone = 0;
    while (!(tares_to_keep >> zone & 1)) {
        zone++;
    }
    uint32_t tare = (uint32_t)zones[zone].tare;
    const uint8_t bytes[5] = {(uint8_t)tare, (uint8_t)(tare >> 8), (uint8_t)(tare >> 16), (uint8_t)(tare >> 24),
                              tare_check(tare)};
    uint8_t *kept = kept_tare_at(zone);
    for (uint8_t i = 0; i < sizeof bytes; i++) {  /* the check byte last */
        if (eeprom_read_byte(kept + i) != bytes[i]) {
            eeprom_write_byte(kept + i, bytes[i]);
            return;
        }
    }
    tares_to_keep &= ~((uint32_t)1 << zone);
}

/* The calibration button held at power-up: tare the empty board, then (the LED blinking fast)
 * wait for the button again with CALIBRATION_CHECKERS checkers on every zone, weigh them and
 * keep each zone's counts per gram in EEPROM. */
static void calibrate(void)
{
    while (!(PINE & _BV(CAL_BUTTON_BIT))) {
        take_input();  /* wait for the button's release */
    }
    for (uint8_t blink = 0; PINE & _BV(CAL_BUTTON_BIT); blink++) {
        leds_status(blink & 1);
        _delay_ms(100);
    }
    static int32_t sums[ZONE_COUNT];
    for (uint8_t sample = 0; sample < TARE_SAMPLES; sample++) {
        wait_ready();
        hx711_read(raw);
        for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
            sums[zone] += raw[zone];
        }
    }
    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        int32_t net = sums[zone] / TARE_SAMPLES - zones[zone].tare;
        int32_t grams = CALIBRATION_CHECKERS * CHECKER_MILLIGRAMS / 1000;
        uint16_t scale = net > grams ? (uint16_t)(net / grams) : DEFAULT_COUNTS_PER_GRAM;
        eeprom_update_word((uint16_t *)(EEPROM_SCALES + 2 * zone), scale);
        zones[zone].counts_per_gram = scale;
    }
}

static void scan(void)
{
    missing_zones = !hx711_all_ready();
    hx711_read(raw);
    scan_number++;
    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        if (sensing_sample(&zones[zone], raw[zone]) && streaming) {
            send_zone_change(zone);
        }
        if (sensing_tare_moved(&zones[zone])) {
            tares_to_keep |= (uint32_t)1 << zone;
        }
    }
}

/* The status LED: on while taring; then a blink a second until the host's HELLO_REQUEST; then
 * on, dark for 50 ms at each heartbeat; eight blinks a second while an HX711 is not answering. */
static void show_status(uint32_t now)
{
    /* powers of two of milliseconds: a division every tick would cost the AVR more than a scan */
    if (missing_zones) {
        leds_status((now >> 6) & 1);
    } else if (!streaming) {
        leds_status((now & 1023) < 100);
    } else {
        leds_status(next_heartbeat - now < HEARTBEAT_MS - 50);
    }
}

static void load_settings(void)
{
    /* big-endian, as `make board-id` writes it (eeprom_read_dword would read it little-endian) */
    board_id = 0;
    for (uint8_t i = 0; i < 4; i++) {
        board_id = board_id << 8 | eeprom_read_byte((const uint8_t *)EEPROM_BOARD_ID + i);
    }
    if (board_id == 0xFFFFFFFFUL) {
        board_id = DEFAULT_BOARD_ID;
    }
    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        uint16_t scale = eeprom_read_word((const uint16_t *)(EEPROM_SCALES + 2 * zone));
        sensing_init(&zones[zone], scale == 0xFFFF || scale == 0 ? DEFAULT_COUNTS_PER_GRAM : scale);
    }
}

int main(void)
{
    /* a 1 ms tick: 16 MHz / 64 / 250 */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    PORTE |= _BV(CAL_BUTTON_BIT);  /* the calibration button's pull-up */
    leds_init();
    hx711_init();
    uart_init();
    load_settings();
    sei();

    uint8_t calibrating = !(PINE & _BV(CAL_BUTTON_BIT));
    leds_status(1);
    tare_all();
    if (calibrating) {
        calibrate();
    }
    weighed = 1;
    set_sleep_mode(SLEEP_MODE_IDLE);
    uint32_t last_scan = now_ms();
    for (;;) {
        take_input();
        uint32_t now = now_ms();
        if (hx711_all_ready() || now - last_scan >= SCAN_TIMEOUT_MS) {
            last_scan = now;
            scan();
        }
        if (streaming && (int32_t)(now - next_heartbeat) >= 0) {
            next_heartbeat += HEARTBEAT_MS;
            send_snapshot();
        }
        show_status(now);
        keep_tares();
        /* sleep until the next interrupt (the 1 ms tick, a byte received) */
        sleep_mode();
    }
}
