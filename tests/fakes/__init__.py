"""Test doubles of programs that do not run here (Excel through xlwings)."""
