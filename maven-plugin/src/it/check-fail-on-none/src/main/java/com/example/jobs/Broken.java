package com.example.jobs;

class Broken { void half( { "SELECT pg_advisory_lock(1)" }
