#include <avr/interrupt.h>
#include <avr/io.h>

#include "board.h"
#include "uart.h"

#define TX_SIZE 512   /* a scan that changes all 28 zones: 28 frames of 17 bytes, and a SNAPSHOT */
#define RX_SIZE 128

static volatile uint8_t tx_ring[TX_SIZE];
static volatile uint16_t tx_head, tx_tail;
static volatile uint8_t rx_ring[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint16_t rx_overruns;

void uart_init(void)
{
    UBRR0 = UART_UBRR;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);  /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART0_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) % RX_SIZE);
    if (next == rx_tail) {
        rx_overruns++;
        return;
    }
    rx_ring[rx_head] = byte;
    rx_head = next;
}

ISR(USART0_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail];
    tx_tail = (tx_tail + 1) % TX_SIZE;
}

void uart_write(const uint8_t *data, uint16_t length)
{
    while (length--) {
        uint16_t next = (tx_head + 1) % TX_SIZE;
        while (next == tx_tail) {
            /* full: the UDRE interrupt makes room */
        }
        tx_ring[tx_head] = *data++;
        tx_head = next;
        UCSR0B |= _BV(UDRIE0);
    }
}

int16_t uart_read(void)
{
    if (rx_head == rx_tail) {
        return -1;
    }
    uint8_t byte = rx_ring[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) % RX_SIZE);
    return byte;
}

uint16_t uart_overruns(void)
{
    uint8_t sreg = SREG;
    cli();
    uint16_t count = rx_overruns;
    SREG = sreg;
    return count;
}
