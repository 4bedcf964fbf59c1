import { parseAbi } from 'viem';

/** What the server and the app read and call on chain 56: the deposit contract (server/chain/contracts) and ERC-20. */
export const depositAbi = parseAbi([
  'event Deposited(uint64 indexed account, address indexed from, uint256 amount)',
  'function deposit(uint256 amount, uint64 account)',
  'function minimum() view returns (uint256)',
  'function token() view returns (address)',
]);

export const tokenAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);
