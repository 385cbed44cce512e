/* USART0 (the Mega's USB bridge) with a ring buffer each way, driven by interrupts. */
#ifndef UART_H
#define UART_H

#include <stdint.h>

void uart_init(void);
/* Queues bytes for sending; waits while the ring is full (the line drains it at 50 kB/s). */
void uart_write(const uint8_t *data, uint16_t length);
/* The next received byte, or -1 when none is waiting. */
int16_t uart_read(void);
/* Received bytes lost because the main loop did not take them in time. */
uint16_t uart_overruns(void);

#endif
