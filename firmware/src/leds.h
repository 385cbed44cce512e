/* The zone LEDs (four chained 74HC595s) and the status LED. */
#ifndef LEDS_H
#define LEDS_H

#include <stdint.h>

void leds_init(void);
/* Bit z-1 lights zone z; the others go off. */
void leds_set_zones(uint32_t mask);
void leds_status(uint8_t on);

#endif
