#!/bin/sh
# Stands for a program that a hostile compile database names: it leaves a
# mark when run, and answers as nvptx-arch would.
echo "$0 ran" >> "$(dirname "$0")/../ran.txt"
echo sm_90
