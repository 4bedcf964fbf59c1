import { Trans } from '@lingui/react/macro';
import { ContactEmail } from './contact-email.tsx';
import * as css from './legal.css.ts';

/** The privacy policy: what is kept and why, how it is protected and shared, and how to delete it. */
export function Privacy() {
  return (
    <>
      <p>
        <Trans>本政策说明 QuantBot 保存你的哪些信息、为什么保存、如何保护，以及如何删除。我们只保存提供服务所必需的信息，不出售你的任何信息。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>1. 我们保存的信息</Trans>
      </h2>
      <ul className={css.list}>
        <li>
          <Trans>账号：登录名、昵称、UID、邀请人，你选填的邮箱、手机号和头像；密码只保存 argon2id 哈希，无法还原。</Trans>
        </li>
        <li>
          <Trans>钱包：钱包登录、充值和提现所用的钱包地址（链上记录本身是公开的）。</Trans>
        </li>
        <li>
          <Trans>交易所：API Key、加密后的 API Secret，以及为执行策略读取的余额、订单和成交。</Trans>
        </li>
        <li>
          <Trans>策略：参数、运行日志、收益、账单和通知。</Trans>
        </li>
        <li>
          <Trans>资金：燃料、积分、奖励和 USDT 余额，充值和提现记录。</Trans>
        </li>
        <li>
          <Trans>安全：登录会话（只保存令牌的哈希）、登录设备和浏览器类型、两步验证密钥（加密保存），以及登录失败和请求频率所对应的 IP 地址（短时间后自动清除）。</Trans>
        </li>
      </ul>
      <p>
        <Trans>主题和语言等界面偏好只保存在你自己的设备上。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>2. 我们如何使用</Trans>
      </h2>
      <p>
        <Trans>
          这些信息只用于：登录并保护你的账号，按你的设置执行策略，计算收益和费用，发放邀请奖励，处理充值和提现，发送站内通知，以及排查故障、抵御攻击。排行榜只显示遮盖后的昵称和
          UID。我们不使用第三方广告或追踪服务。
        </Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>3. 我们如何保护</Trans>
      </h2>
      <p>
        <Trans>
          API Secret 和两步验证密钥以 AES-256-GCM 加密保存，并与其所属账号绑定；它们从不在页面、接口或日志中返回。每次查询都只返回你自己的数据。修改密码或两步验证后，提现会暂时锁定，并通知你。
        </Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>4. 与谁共享</Trans>
      </h2>
      <p>
        <Trans>只有在执行你的指令时，我们才把必要的数据发给你绑定的交易所（下单、查询余额）或 BNB Smart Chain（链上转账）；法律要求时，向有权机关提供。除此之外，不向任何第三方提供。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>5. 保存多久</Trans>
      </h2>
      <p>
        <Trans>账号存续期间保存上述信息。账号删除后，我们在 30 天内删除或匿名化其数据，法律要求保留的资金记录除外。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>6. 如何删除账号</Trans>
      </h2>
      <ol className={css.list}>
        <li>
          <Trans>停止全部策略，提取或用完余额；</Trans>
        </li>
        <li>
          <Trans>在「绑定交易所」中删除全部 API 密钥（服务器随即删除其密文），并在交易所停用这些密钥；</Trans>
        </li>
        <li>
          <Trans>
            发送邮件至 <ContactEmail />
            ，写明你的账号和 UID，申请删除。我们核实身份后，在 30 天内删除账号。
          </Trans>
        </li>
      </ol>

      <h2 className={css.heading}>
        <Trans>7. 你的权利</Trans>
      </h2>
      <p>
        <Trans>你可以随时在「我的」中查看和修改资料、修改密码、解绑交易所，也可以通过邮件查询、更正或删除你的信息。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>8. 未成年人</Trans>
      </h2>
      <p>
        <Trans>本服务不面向未满 18 周岁的人。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>9. 联系我们</Trans>
      </h2>
      <p>
        <Trans>
          对本政策有任何疑问，请发送邮件至 <ContactEmail />。
        </Trans>
      </p>
    </>
  );
}
