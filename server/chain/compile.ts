import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';
import type { Abi, Hex } from 'viem';

/**
 * Compiles the project's Solidity sources (contracts/*.sol) with solc-js, for the tests and the dev
 * chain (~0.5 s). Production deploys the same sources; the server itself needs only the ABI pieces in
 * abi.ts, never the compiler.
 */
export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

const sources = ['QuantDeposit.sol', 'TestUSDT.sol'] as const;
let cache: Record<string, Compiled> | undefined;

export function compileContracts(): Record<'QuantDeposit' | 'TestUSDT', Compiled> {
  if (!cache) {
    const input = {
      language: 'Solidity',
      sources: Object.fromEntries(sources.map((f) => [f, { content: readFileSync(join(import.meta.dirname, 'contracts', f), 'utf8') }])),
      settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
      errors?: { severity: string; formattedMessage: string }[];
      contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
    };
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
    cache = {};
    for (const file of Object.values(output.contracts)) {
      for (const [name, c] of Object.entries(file)) cache[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  return cache as Record<'QuantDeposit' | 'TestUSDT', Compiled>;
}
