/* 28 HX711s on one shared clock, their data lines on PORTA, PORTC, PORTL and PORTK 0-3:
 * one pass of 24 clocks reads a sample of every zone. */
#ifndef HX711_H
#define HX711_H

#include <stdint.h>
#include "board.h"

void hx711_init(void);
/* All 28 have a conversion ready (every data line low). */
uint8_t hx711_all_ready(void);
/* The zones whose data line is low (bit z-1 for zone z): the ready ones. */
uint32_t hx711_ready_mask(void);
/* Clocks out one sample of every zone (signed 24-bit, sign-extended); the 25th clock keeps
 * channel A at gain 128. A zone whose converter was not ready reads -1 (its line high). */
void hx711_read(int32_t raw[ZONE_COUNT]);

#endif
