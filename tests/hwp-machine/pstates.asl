/* Suite 71's stats boots: _PCT (I/O port 0x80, ignored by the pc machine) and three _PSS
 * states for QEMU pc's \_SB.CPUS.C000 and C001, so that acpi-cpufreq binds. No _PPC (the
 * module stays unloadable), no _PSD (one policy per CPU). */
DefinitionBlock ("", "SSDT", 2, "HWPM", "PSTATES", 1)
{
    External (\_SB.CPUS.C000, ProcessorObj)
    External (\_SB.CPUS.C001, ProcessorObj)
    Name (\_SB.PPCT, Package () {
        ResourceTemplate () { Register (SystemIO, 8, 0, 0x80) },
        ResourceTemplate () { Register (SystemIO, 8, 0, 0x80) }
    })
    /* MHz, mW, latency and bus master latency (us), control, status */
    Name (\_SB.PPSS, Package () {
        Package () { 1800, 10000, 10, 10, 18, 18 },
        Package () { 1200, 6000, 10, 10, 12, 12 },
        Package () { 800, 3000, 10, 10, 8, 8 }
    })
    Scope (\_SB.CPUS.C000) { Method (_PCT) { Return (\_SB.PPCT) } Method (_PSS) { Return (\_SB.PPSS) } }
    Scope (\_SB.CPUS.C001) { Method (_PCT) { Return (\_SB.PPCT) } Method (_PSS) { Return (\_SB.PPSS) } }
}
