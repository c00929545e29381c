#!/bin/sh
# A C++ compiler that takes its time (crash-report.test signals pld-run
# while it waits for it).
sleep 4
