import { Trans } from '@lingui/react/macro';
import { ContactEmail } from './contact-email.tsx';
import * as css from './legal.css.ts';

/** The user agreement: what the service does and does not do, the risks, the trader's part, the fees. */
export function Agreement() {
  return (
    <>
      <p>
        <Trans>欢迎使用 QuantBot。本协议是你与本站运营方之间关于使用 QuantBot 服务的约定。注册账号或使用服务，即表示你已阅读、理解并同意本协议和《隐私政策》。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>1. 服务内容</Trans>
      </h2>
      <p>
        <Trans>QuantBot 是自动化策略交易工具：你创建马丁格尔、网格或 AI 策略后，服务器按你设定的参数，通过你绑定的交易所 API 密钥，在你自己的交易所账户中自动下单，7×24 小时运行。</Trans>
      </p>
      <p>
        <Trans>我们还提供模拟盘、回测和 AI 参数搜索，供你在投入真实资金之前检验策略。</Trans>
      </p>
      <p>
        <Trans>本站不是交易所或经纪商，不保管你在交易所的资产，也不提供投资建议。回测、AI 建议和排行榜上的收益都只是历史数据，不代表未来表现。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>2. 风险提示</Trans>
      </h2>
      <p>
        <Trans>加密资产价格波动剧烈，可能在短时间内大幅下跌。自动化交易会在你不看盘时持续下单：</Trans>
      </p>
      <ul className={css.list}>
        <li>
          <Trans>马丁格尔策略在价格持续下跌时不断补仓，占用的资金和亏损都会增加；</Trans>
        </li>
        <li>
          <Trans>网格策略在价格离开区间后不再获利，可能长期持有亏损的币；</Trans>
        </li>
        <li>
          <Trans>止损单可能以远差于设定的价格成交；</Trans>
        </li>
        <li>
          <Trans>交易所故障、网络中断、行情延迟、API 限频或本服务故障，都可能使订单延迟、失败，造成损失。</Trans>
        </li>
      </ul>
      <p>
        <Trans>回测按历史 K 线估算成交价和滑点，与真实成交存在差异。请只投入你能承受全部损失的资金；每个交易决定及其盈亏由你自己承担。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>3. 账号与交易所 API 密钥</Trans>
      </h2>
      <p>
        <Trans>请妥善保管登录密码、支付密码和两步验证设备。你对自己账号下的全部操作负责。</Trans>
      </p>
      <p>
        <Trans>
          在交易所创建 API 密钥时，只开启读取和现货交易权限，切勿开启提现或划转权限，并把密钥限定在本站公布的服务器 IP 白名单内。密钥的权限设置由你负责；发现异常时，请立即在交易所删除或停用该密钥。
        </Trans>
      </p>
      <p>
        <Trans>服务器用 AES-256-GCM 加密保存你的 API Secret，从不在页面、接口或日志中显示它。你可以随时在「绑定交易所」中删除密钥，删除后服务器随即删除其密文。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>4. 费用</Trans>
      </h2>
      <p>
        <Trans>实盘策略每完成一轮盈利的交易，按页面公示的比例从你的燃料余额中扣除燃料费；亏损的一轮和模拟盘不收费。燃料不足时策略会暂停，补充后可继续运行。</Trans>
      </p>
      <p>
        <Trans>充值和提现通过 BNB Smart Chain 进行，提现收取页面所示的手续费。链上转账一经确认无法撤回，请仔细核对地址和网络。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>5. 禁止的行为</Trans>
      </h2>
      <p>
        <Trans>不得利用本服务洗钱、操纵市场或从事其他违法活动；不得攻击本服务或试图绕过其安全措施；不得使用他人的账号或 API 密钥。违反者，我们可以暂停或终止其账号。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>6. 服务的变更与终止</Trans>
      </h2>
      <p>
        <Trans>我们可能因维护、升级或安全原因暂停部分服务，并尽量提前在站内通知。你可以随时停止策略、删除 API 密钥，并按《隐私政策》申请删除账号。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>7. 责任限制</Trans>
      </h2>
      <p>
        <Trans>在法律允许的范围内，因市场行情、交易所、网络或你自己的参数设置造成的交易损失，我们不承担责任。因我们的过错直接造成的损失，我们以你在过去 12 个月内向本站支付的费用为限承担责任。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>8. 协议的修改</Trans>
      </h2>
      <p>
        <Trans>修改本协议时，我们会在站内通知并更新本页日期。修改后继续使用服务，即表示你接受修改后的协议。</Trans>
      </p>

      <h2 className={css.heading}>
        <Trans>9. 联系我们</Trans>
      </h2>
      <p>
        <Trans>
          对本协议有任何疑问，请发送邮件至 <ContactEmail />。
        </Trans>
      </p>
    </>
  );
}
