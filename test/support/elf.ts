import { closeSync, openSync, readSync } from 'node:fs'

/** e_machine values of the ELF header (System V gABI) the binaries are built for. */
const MACHINES: Record<number, string> = { 62: 'x86-64', 183: 'AArch64' }

/**
 * What the first 20 bytes of an executable say: the ELF magic, 64-bit class, byte order and
 * machine (`file` reads the same fields). Throws for anything that is not an ELF file.
 */
export function readElfHeader(path: string): { class: '64-bit' | '32-bit'; endian: 'LSB' | 'MSB'; machine: string } {
  const header = Buffer.alloc(20)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, header, 0, header.length, 0)
  } finally {
    closeSync(fd)
  }
  if (header.subarray(0, 4).toString('latin1') !== '\x7fELF') throw new Error(`${path} is not an ELF file`)
  const endian = header[5] === 1 ? 'LSB' : 'MSB'
  const machine = endian === 'LSB' ? header.readUInt16LE(18) : header.readUInt16BE(18)
  return {
    class: header[4] === 2 ? '64-bit' : '32-bit',
    endian,
    machine: MACHINES[machine] ?? `machine ${machine}`,
  }
}
