package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SettlementJobTest {

    @Test
    void keyIsFixed() {
        assertEquals(4242, SettlementJob.SETTLEMENT_KEY);
    }
}
