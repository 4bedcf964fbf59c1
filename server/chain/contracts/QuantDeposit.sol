// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// Deposits of USDT on chain 56. A trader approves this contract, then calls
/// deposit(amount, account) where account is their UID; the server credits the Deposited event once it
/// is `confirmations` blocks deep. The owner moves the collected funds to the hot or cold wallet.
contract QuantDeposit {
    IERC20 public immutable token;
    address public owner;
    uint256 public minimum;

    event Deposited(uint64 indexed account, address indexed from, uint256 amount);
    event Swept(address indexed to, uint256 amount);
    event MinimumChanged(uint256 minimum);
    event OwnerChanged(address owner);

    error BelowMinimum(uint256 amount, uint256 minimum);
    error NoAccount();
    error NotOwner();
    error TransferFailed();

    constructor(IERC20 token_, uint256 minimum_) {
        token = token_;
        owner = msg.sender;
        minimum = minimum_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function deposit(uint256 amount, uint64 account) external {
        if (account == 0) revert NoAccount();
        if (amount < minimum) revert BelowMinimum(amount, minimum);
        _call(abi.encodeCall(IERC20.transferFrom, (msg.sender, address(this), amount)));
        emit Deposited(account, msg.sender, amount);
    }

    function sweep(address to, uint256 amount) external onlyOwner {
        _call(abi.encodeCall(IERC20.transfer, (to, amount)));
        emit Swept(to, amount);
    }

    function setMinimum(uint256 minimum_) external onlyOwner {
        minimum = minimum_;
        emit MinimumChanged(minimum_);
    }

    function setOwner(address owner_) external onlyOwner {
        owner = owner_;
        emit OwnerChanged(owner_);
    }

    /// Calls the token and accepts both ERC-20 styles: a `true` answer or none (as BSC-USD is not, but
    /// other stablecoins are).
    function _call(bytes memory data) private {
        (bool ok, bytes memory answer) = address(token).call(data);
        if (!ok || (answer.length != 0 && !abi.decode(answer, (bool)))) revert TransferFailed();
    }
}
