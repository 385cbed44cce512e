/* The board this firmware is for: an Arduino Mega 2560 (ATmega2560 at 16 MHz) with 28 HX711s.
 * Every pin and constant a builder may change is here; firmware/README.md draws the wiring. */
#ifndef BOARD_H
#define BOARD_H

#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 1
#define FIRMWARE_PATCH 0

#define ZONE_COUNT 28
#define MAX_STACK 30          /* 30 matched checkers stay within half a checker's mass (sensing.md) */
#define HEARTBEAT_MS 1000

/* HX711 data lines, zone 1 first: PORTA 0-7 (D22-D29) zones 1-8, PORTC 0-7 (D37-D30) zones 9-16,
 * PORTL 0-7 (D49-D42) zones 17-24, PORTK 0-3 (A8-A11) zones 25-28. One shared clock: PB4 (D10). */
#define HX711_CLOCK_BIT 4     /* on PORTB */

/* Zone LEDs: four 74HC595 in a chain (zone 28's bit shifted first), on PB2 data (D51),
 * PB1 clock (D52), PB0 latch (D53). */
#define LED_DATA_BIT 2
#define LED_CLOCK_BIT 1
#define LED_LATCH_BIT 0
/* The status LED: the Mega's own "L" LED, PB7 (D13). */
#define STATUS_LED_BIT 7
/* The calibration button: PE4 (D2) to ground, read at power-up. */
#define CAL_BUTTON_BIT 4      /* on PORTE */

/* Mass: checkers of 14 g; the load cells' scale in HX711 counts per gram (a 5 kg bar cell at
 * 1 mV/V, gain 128, 5 V excitation: about 420), overridden per zone by calibration (EEPROM). */
#define CHECKER_MILLIGRAMS 14000L
#define DEFAULT_COUNTS_PER_GRAM 420
#define CALIBRATION_CHECKERS 5     /* the checkers a builder puts on every zone to calibrate */

/* Re-tare: a zone reading zero, within a quarter checker of its tare, still for 10 s. */
#define RETARE_HALF_GRAMS 7L     /* 3.5 g, in half grams: no division on the AVR */
#define RETARE_SCANS 800      /* 10 s at 80 samples/s */
#define TARE_SAMPLES 16       /* averaged at power-up on the empty board: 0.2 s */
/* The tares are kept in EEPROM, so that a board restarting mid-game (a brown-out, a watchdog's
 * reset) counts the checkers on it from its empty plates; rewritten when a re-tare has moved one
 * by more than KEEP_TARE_GRAMS (temperature, creep: rarely, for the EEPROM's 100,000 writes). */
#define KEEP_TARE_GRAMS 2L

/* 16 MHz cannot make 460800 baud: UBRR 3 with U2X gives 500000, which is what the Mega's
 * USB bridge (an ATmega16U2 at 16 MHz) makes of 460800 too, so the two agree (protocol.md). */
#define UART_UBRR 3

/* The board id HELLO reports: EEPROM bytes 0-3 (big-endian), written once per board with
 * avrdude; an erased EEPROM reads 0xFFFFFFFF and this id is sent instead. */
#define DEFAULT_BOARD_ID 0x4D470001UL
#define EEPROM_BOARD_ID 0
#define EEPROM_SCALES 4       /* uint16 counts per gram for each zone, after the board id */
/* Each zone's kept tare: int32 raw counts of its empty plate (little-endian), then a check byte
 * written last, so that a tare half-written when the power went is not taken for one (bytes 60-199). */
#define EEPROM_TARES 60
#define TARE_CHECK 0x5A

#endif
