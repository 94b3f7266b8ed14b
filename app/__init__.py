"""DSP Console server: one folder per domain over a shared kernel (README, "Where things are"). Nothing here
imports `components`."""
