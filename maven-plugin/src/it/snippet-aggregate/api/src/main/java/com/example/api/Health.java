package com.example.api;

/** A module without advisory locks: compiled before the analysis, nothing to report. */
public class Health {

    public String status() {
        return "ok";
    }
}
