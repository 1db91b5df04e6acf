printf '\x7fELF\x00\x00hello_symbol\x00main\x00_start_here\x00' > fake.bin
strings fake.bin
strings -n 8 fake.bin
