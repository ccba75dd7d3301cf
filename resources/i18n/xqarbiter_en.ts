<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_GB" sourcelanguage="zh_CN">
  <context>
    <name>AuditLogDialog</name>
    <message>
      <source>审计日志</source>
      <translation>Audit log</translation>
    </message>
    <message>
      <source>查找：操作、对象、理由……</source>
      <translation>Find: action, entity, reason…</translation>
    </message>
    <message>
      <source>导出 CSV……</source>
      <translation>Export CSV…</translation>
    </message>
    <message>
      <source>导出审计日志</source>
      <translation>Export the audit log</translation>
    </message>
    <message>
      <source>共 %1 条记录</source>
      <translation>%1 entries</translation>
    </message>
  </context>
  <context>
    <name>AuditModel</name>
    <message>
      <source>时间</source>
      <translation>Time</translation>
    </message>
    <message>
      <source>操作人</source>
      <translation>Who</translation>
    </message>
    <message>
      <source>操作</source>
      <translation>Action</translation>
    </message>
    <message>
      <source>对象</source>
      <translation>Entity</translation>
    </message>
    <message>
      <source>内容</source>
      <translation>Change</translation>
    </message>
    <message>
      <source>理由</source>
      <translation>Reason</translation>
    </message>
  </context>
  <context>
    <name>BackupListDialog</name>
    <message>
      <source>时间</source>
      <translation>Time</translation>
    </message>
    <message>
      <source>原因</source>
      <translation>Reason</translation>
    </message>
    <message>
      <source>文件</source>
      <translation>File</translation>
    </message>
    <message>
      <source>从备份恢复</source>
      <translation>Restore from a backup</translation>
    </message>
    <message>
      <source>恢复前，当前文件会先另存一份备份，恢复操作可以再撤回。</source>
      <translation>Before restoring, the current file is backed up, so a restore can itself be undone.</translation>
    </message>
  </context>
  <context>
    <name>BoardRecordsModel</name>
    <message>
      <source>台次</source>
      <translation>Board</translation>
    </message>
    <message>
      <source>红方</source>
      <translation>Red</translation>
    </message>
    <message>
      <source>结果</source>
      <translation>Result</translation>
    </message>
    <message>
      <source>黑方</source>
      <translation>Black</translation>
    </message>
    <message>
      <source>录谱人</source>
      <translation>Recorder</translation>
    </message>
    <message>
      <source>棋谱</source>
      <translation>Record</translation>
    </message>
    <message>
      <source>待交</source>
      <translation>owed</translation>
    </message>
    <message>
      <source>%1 回合</source>
      <translation>%1 moves</translation>
    </message>
  </context>
  <context>
    <name>BoardWidget</name>
    <message>
      <source>楚 河</source>
      <translation>River</translation>
    </message>
    <message>
      <source>汉 界</source>
      <translation>Border</translation>
    </message>
    <message>
      <source>不能走到这里</source>
      <translation>That piece cannot move there</translation>
    </message>
  </context>
  <context>
    <name>BracketCanvas</name>
    <message>
      <source>慢棋</source>
      <translation>slow</translation>
    </message>
    <message>
      <source>快棋</source>
      <translation>rapid</translation>
    </message>
    <message>
      <source>附加赛</source>
      <translation>deciding</translation>
    </message>
    <message>
      <source>待定</source>
      <translation>to be decided</translation>
    </message>
    <message>
      <source>未赛</source>
      <translation>not played</translation>
    </message>
    <message>
      <source>待抽签定先后</source>
      <translation>colours to be drawn</translation>
    </message>
    <message>
      <source>（第 %1、%2 名）</source>
      <translation> (places %1, %2)</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>附加赛待 %1 号选色</source>
      <translation>deciding game: no. %1 chooses colour</translation>
    </message>
    <message>
      <source>抽签种子 %1</source>
      <translation>lot seed %1</translation>
    </message>
    <message>
      <source>第%1局 %2  红 %3 — 黑 %4   %5</source>
      <translation>G%1 %2  Red %3 – Black %4   %5</translation>
    </message>
    <message>
      <source>超快棋</source>
      <translation>Blitz</translation>
    </message>
    <message>
      <source>待 %1 号选先后手</source>
      <translation>waiting for no. %1 to choose colours</translation>
    </message>
  </context>
  <context>
    <name>BracketView</name>
    <message>
      <source>产生淘汰赛对阵</source>
      <translation>Create knockout bracket</translation>
    </message>
    <message>
      <source>抽签定先后</source>
      <translation>Draw colours</translation>
    </message>
    <message>
      <source>由程序抽签决定本轮各场第一局的先后手，记录抽签种子</source>
      <translation>Draw the colours of game 1 of every match of this round by lot; the seed is recorded</translation>
    </message>
    <message>
      <source>录入现场抽签……</source>
      <translation>Enter physical draw…</translation>
    </message>
    <message>
      <source>附加赛选色……</source>
      <translation>Deciding-game colour…</translation>
    </message>
    <message>
      <source>淘汰赛成绩在“编排”中按台次录入；绿色为胜者，虚线为负者的去向。</source>
      <translation>Knockout results are entered by board in Rounds; green marks the winner, dashed lines show where losers go.</translation>
    </message>
    <message>
      <source>附加赛选色</source>
      <translation>Deciding-game colour</translation>
    </message>
    <message>
      <source>高种子棋手的选择：</source>
      <translation>The higher seed chooses:</translation>
    </message>
    <message>
      <source>轮次：</source>
      <translation>Round:</translation>
    </message>
    <message>
      <source>%1 第 %2 轮结束后产生 %3 人淘汰赛对阵。</source>
      <translation>%1: the knockout of %3 players is created after round %2.</translation>
    </message>
    <message>
      <source>淘汰赛对阵已产生</source>
      <translation>Knockout bracket created</translation>
    </message>
    <message>
      <source>本轮没有待抽签的比赛</source>
      <translation>No match of this round is waiting for its colour draw</translation>
    </message>
    <message>
      <source>现场抽签结果已录入</source>
      <translation>Physical draw entered</translation>
    </message>
    <message>
      <source>执红</source>
      <translation>takes Red</translation>
    </message>
    <message>
      <source>执黑</source>
      <translation>takes Black</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>%1 附加赛先后手已确定</source>
      <translation>%1: deciding-game colours set</translation>
    </message>
    <message>
      <source>%1不设淘汰赛</source>
      <translation>%1 has no knockout stage</translation>
    </message>
    <message>
      <source>第 %1 轮先后手已抽签，抽签种子 %2（可据此复核）</source>
      <translation>Round %1 colours drawn, lot seed %2 (for verification)</translation>
    </message>
    <message>
      <source>%1 的淘汰赛阶段开始时产生对阵。</source>
      <translation>The bracket of %1 is drawn when its knockout stage begins.</translation>
    </message>
  </context>
  <context>
    <name>FileDialogs</name>
    <message>
      <source>查找范围(&amp;I)：</source>
      <translation>Look &amp;in:</translation>
    </message>
    <message>
      <source>文件类型(&amp;T)：</source>
      <translation>Files of &amp;type:</translation>
    </message>
    <message>
      <source>取消</source>
      <translation>Cancel</translation>
    </message>
    <message>
      <source>驱动器</source>
      <translation>Drive</translation>
    </message>
    <message>
      <source>文件夹</source>
      <translation>Folder</translation>
    </message>
    <message>
      <source>文件</source>
      <translation>File</translation>
    </message>
    <message>
      <source>打开(&amp;O)</source>
      <translation>&amp;Open</translation>
    </message>
    <message>
      <source>保存(&amp;S)</source>
      <translation>&amp;Save</translation>
    </message>
    <message>
      <source>选择文件夹</source>
      <translation>Choose folder</translation>
    </message>
    <message>
      <source>文件夹(&amp;N)：</source>
      <translation>Fol&amp;der:</translation>
    </message>
    <message>
      <source>文件名(&amp;N)：</source>
      <translation>File &amp;name:</translation>
    </message>
    <message>
      <source>%1 文件</source>
      <translation>%1 file</translation>
    </message>
  </context>
  <context>
    <name>CommandLine</name>
    <message>
      <source>命令行修改了赛事文件（已记入审计日志）；此前的操作不能再撤销</source>
      <translation>The command line changed the tournament file (written to the audit log); earlier actions can no longer be undone</translation>
    </message>
  </context>
  <context>
    <name>GameEditor</name>
    <message>
      <source>着法，如 炮二平五、C2=5 或 h2e2，回车</source>
      <translation>Move, e.g. 炮二平五, C2=5 or h2e2, then Enter</translation>
    </message>
    <message>
      <source>悔一步</source>
      <translation>Take back</translation>
    </message>
    <message>
      <source>对局结束：%1方无着可走</source>
      <translation>Game over: %1 has no legal move</translation>
    </message>
  </context>
  <context>
    <name>GameResult</name>
    <message>
      <source>红胜</source>
      <translation>Red wins</translation>
    </message>
    <message>
      <source>黑胜</source>
      <translation>Black wins</translation>
    </message>
    <message>
      <source>和</source>
      <translation>Draw</translation>
    </message>
    <message>
      <source>黑弃权</source>
      <translation>Black forfeits</translation>
    </message>
    <message>
      <source>红弃权</source>
      <translation>Red forfeits</translation>
    </message>
    <message>
      <source>双弃权</source>
      <translation>Both forfeit</translation>
    </message>
    <message>
      <source>未录入</source>
      <translation>No result</translation>
    </message>
  </context>
  <context>
    <name>HallDialog</name>
    <message>
      <source>赛场网络</source>
      <translation>Hall network</translation>
    </message>
    <message>
      <source>仅本机（127.0.0.1）</source>
      <translation>This computer only (127.0.0.1)</translation>
    </message>
    <message>
      <source>所有网络（0.0.0.0）</source>
      <translation>All networks (0.0.0.0)</translation>
    </message>
    <message>
      <source>服务</source>
      <translation>Server</translation>
    </message>
    <message>
      <source>网络：</source>
      <translation>Network:</translation>
    </message>
    <message>
      <source>端口：</source>
      <translation>Port:</translation>
    </message>
    <message>
      <source>地址：</source>
      <translation>Address:</translation>
    </message>
    <message>
      <source>如 http://192.168.1.10:8080（留空：纸上不印二维码）</source>
      <translation>e.g. http://192.168.1.10:8080 (empty: no QR code on paper)</translation>
    </message>
    <message>
      <source>保存</source>
      <translation>Save</translation>
    </message>
    <message>
      <source>打印在台卡和名单上的地址（二维码）</source>
      <translation>Address printed on table cards and lists (QR code)</translation>
    </message>
    <message>
      <source>副裁判录入令牌（本轮结束即失效）</source>
      <translation>Deputy passes (expire when the round is closed)</translation>
    </message>
    <message>
      <source>副裁判姓名</source>
      <translation>Deputy's name</translation>
    </message>
    <message>
      <source>发放令牌</source>
      <translation>Issue pass</translation>
    </message>
    <message>
      <source>收回选中令牌</source>
      <translation>Revoke selected pass</translation>
    </message>
    <message>
      <source>副裁判</source>
      <translation>Deputy</translation>
    </message>
    <message>
      <source>组别</source>
      <translation>Group</translation>
    </message>
    <message>
      <source>轮次</source>
      <translation>Round</translation>
    </message>
    <message>
      <source>台次</source>
      <translation>Boards</translation>
    </message>
    <message>
      <source>状态</source>
      <translation>State</translation>
    </message>
    <message>
      <source>副裁判录入令牌（只读打开：不可用）</source>
      <translation>Deputy passes (file opened read-only: unavailable)</translation>
    </message>
    <message>
      <source>停止</source>
      <translation>Stop</translation>
    </message>
    <message>
      <source>启动</source>
      <translation>Start</translation>
    </message>
    <message>
      <source>未启动</source>
      <translation>Not running</translation>
    </message>
    <message>
      <source>有效</source>
      <translation>Valid</translation>
    </message>
    <message>
      <source>只有本机能打开。要让手机访问，请选择局域网地址（用路由器，不要用 Windows 热点：它最多连 8 台设备）。</source>
      <translation>Only this computer can open it. For phones, choose a network address (use a router, not a Windows hotspot: it takes at most 8 devices).</translation>
    </message>
    <message>
      <source>手机连上同一路由器后扫码即可查看。</source>
      <translation>Phones on the same router open it by scanning the code.</translation>
    </message>
    <message>
      <source>已收回</source>
      <translation>Revoked</translation>
    </message>
    <message>
      <source>本轮已结束</source>
      <translation>Round closed</translation>
    </message>
    <message>
      <source>副裁判录入令牌</source>
      <translation>Deputy pass</translation>
    </message>
    <message>
      <source>局域网 %1</source>
      <translation>Network %1</translation>
    </message>
    <message>
      <source>%1：%2 第 %3 轮 %4。请副裁判扫码（只显示这一次）：</source>
      <translation>%1: %2 round %3, %4. The deputy scans this code (shown only this once):</translation>
    </message>
  </context>
  <context>
    <name>ImportPreviewDialog</name>
    <message>
      <source>破例接受的理由（将记入操作日志）</source>
      <translation>reason for accepting late entries (kept in the audit log)</translation>
    </message>
    <message>
      <source>全部导入（有错则不导入）</source>
      <translation>Import all (nothing if any row is wrong)</translation>
    </message>
    <message>
      <source>行</source>
      <translation>Row</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>组别</source>
      <translation>Group</translation>
    </message>
    <message>
      <source>问题</source>
      <translation>Problems</translation>
    </message>
    <message>
      <source>导入报名表：%1</source>
      <translation>Import registration form: %1</translation>
    </message>
    <message>
      <source>已过报名截止时间（%1），裁判长破例接受的理由：</source>
      <translation>Entries closed at %1; the chief arbiter's reason for accepting them:</translation>
    </message>
    <message>
      <source>只导入无误的 %1 行</source>
      <translation>Import only the %1 valid rows</translation>
    </message>
    <message>
      <source>共 %1 行：%2 行无误，%3 行有问题。尚未写入任何数据。</source>
      <translation>%1 rows: %2 valid, %3 with problems. Nothing has been written yet.</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>无法打开</source>
      <translation>Cannot open</translation>
    </message>
    <message>
      <source>报名</source>
      <translation>Players</translation>
    </message>
    <message>
      <source>编排</source>
      <translation>Rounds</translation>
    </message>
    <message>
      <source>淘汰赛</source>
      <translation>Bracket</translation>
    </message>
    <message>
      <source>名次</source>
      <translation>Standings</translation>
    </message>
    <message>
      <source>团体</source>
      <translation>Teams</translation>
    </message>
    <message>
      <source>奖金</source>
      <translation>Prizes</translation>
    </message>
    <message>
      <source>棋谱</source>
      <translation>Records</translation>
    </message>
    <message>
      <source>设置</source>
      <translation>Settings</translation>
    </message>
    <message>
      <source>象棋赛事编排系统</source>
      <translation>Xiangqi Arbiter</translation>
    </message>
    <message>
      <source>组别</source>
      <translation>Group</translation>
    </message>
    <message>
      <source>文件</source>
      <translation>File</translation>
    </message>
    <message>
      <source>新建赛事……</source>
      <translation>New tournament…</translation>
    </message>
    <message>
      <source>打开……</source>
      <translation>Open…</translation>
    </message>
    <message>
      <source>最近打开</source>
      <translation>Recent files</translation>
    </message>
    <message>
      <source>另存副本……</source>
      <translation>Save a copy…</translation>
    </message>
    <message>
      <source>从备份恢复……</source>
      <translation>Restore from backup…</translation>
    </message>
    <message>
      <source>审计日志……</source>
      <translation>Audit log…</translation>
    </message>
    <message>
      <source>退出</source>
      <translation>Quit</translation>
    </message>
    <message>
      <source>正在生成%1……</source>
      <translation>Making %1…</translation>
    </message>
    <message>
      <source>正在导出成绩册……</source>
      <translation>Exporting the results workbook…</translation>
    </message>
    <message>
      <source>正在导出成绩网页……</source>
      <translation>Exporting the results pages…</translation>
    </message>
    <message>
      <source>编辑</source>
      <translation>Edit</translation>
    </message>
    <message>
      <source>语言</source>
      <translation>Language</translation>
    </message>
    <message>
      <source>打印</source>
      <translation>Print</translation>
    </message>
    <message>
      <source>导出成绩册（Excel）…</source>
      <translation>Export results workbook (Excel)…</translation>
    </message>
    <message>
      <source>导出成绩网页（HTML）…</source>
      <translation>Export results website (HTML)…</translation>
    </message>
    <message>
      <source>赛场网络</source>
      <translation>Hall network</translation>
    </message>
    <message>
      <source>赛场网络（手机查看、副裁判录入）…</source>
      <translation>Hall network (phones, deputies' entry)…</translation>
    </message>
    <message>
      <source>导出成绩册</source>
      <translation>Export results workbook</translation>
    </message>
    <message>
      <source>Excel 工作簿 (*.xlsx)</source>
      <translation>Excel workbook (*.xlsx)</translation>
    </message>
    <message>
      <source>导出成绩网页到文件夹</source>
      <translation>Export the results website to a folder</translation>
    </message>
    <message>
      <source>撤销</source>
      <translation>Undo</translation>
    </message>
    <message>
      <source>重做</source>
      <translation>Redo</translation>
    </message>
    <message>
      <source>打开赛事</source>
      <translation>Open tournament</translation>
    </message>
    <message>
      <source>新建赛事</source>
      <translation>New tournament</translation>
    </message>
    <message>
      <source>另存副本</source>
      <translation>Save a copy</translation>
    </message>
    <message>
      <source>操作被拒绝</source>
      <translation>Action refused</translation>
    </message>
    <message>
      <source>已结束</source>
      <translation>closed</translation>
    </message>
    <message>
      <source>组别：</source>
      <translation>Group:</translation>
    </message>
    <message>
      <source>（只读）</source>
      <translation> (read-only)</translation>
    </message>
    <message>
      <source>尚未编排</source>
      <translation>Not paired yet</translation>
    </message>
    <message>
      <source>成绩已齐</source>
      <translation>all results in</translation>
    </message>
    <message>
      <source>无法打印</source>
      <translation>Cannot print</translation>
    </message>
    <message>
      <source>无法导出</source>
      <translation>Cannot export</translation>
    </message>
    <message>
      <source>已导出：%1</source>
      <translation>Exported: %1</translation>
    </message>
    <message>
      <source>赛事文件 (*%1)</source>
      <translation>Tournament files (*%1)</translation>
    </message>
    <message>
      <source>无法新建</source>
      <translation>Cannot create</translation>
    </message>
    <message>
      <source>无法保存副本</source>
      <translation>Cannot save the copy</translation>
    </message>
    <message>
      <source>副本已保存：%1</source>
      <translation>Copy saved: %1</translation>
    </message>
    <message>
      <source>无法恢复</source>
      <translation>Cannot restore</translation>
    </message>
    <message>
      <source>组别：%1</source>
      <translation>Group: %1</translation>
    </message>
    <message>
      <source>（无）</source>
      <translation>(none)</translation>
    </message>
    <message>
      <source>待录入 %1 台</source>
      <translation>results pending: %1</translation>
    </message>
    <message>
      <source>已导出 %1 个网页到 %2</source>
      <translation>Exported %1 pages to %2</translation>
    </message>
    <message>
      <source>第 %1 轮：%2</source>
      <translation>Round %1: %2</translation>
    </message>
    <message>
      <source>团体赛</source>
      <translation>Team matches</translation>
    </message>
  </context>
  <context>
    <name>ManualDrawDialog</name>
    <message>
      <source>录入现场抽签</source>
      <translation>Enter physical draw</translation>
    </message>
    <message>
      <source>每场比赛第一局执红的棋手（“程序抽签”的比赛由程序抽签）：</source>
      <translation>Who drew Red in game 1 of each match (matches left on “By lot” are drawn by the program):</translation>
    </message>
    <message>
      <source>程序抽签</source>
      <translation>By lot</translation>
    </message>
    <message>
      <source>%1 号 %2 执红</source>
      <translation>no. %1 %2 takes Red</translation>
    </message>
  </context>
  <context>
    <name>NewEventDialog</name>
    <message>
      <source>新建赛事</source>
      <translation>New tournament</translation>
    </message>
    <message>
      <source>如：2025年天水市职工象棋公开赛</source>
      <translation>e.g. 2025 Tianshui Workers' Xiangqi Open</translation>
    </message>
    <message>
      <source>组别之间用顿号或逗号隔开</source>
      <translation>Separate the groups with commas</translation>
    </message>
    <message>
      <source>规程模板：</source>
      <translation>Regulation template:</translation>
    </message>
    <message>
      <source>赛事名称：</source>
      <translation>Event name:</translation>
    </message>
    <message>
      <source>开始日期：</source>
      <translation>First day:</translation>
    </message>
    <message>
      <source>结束日期：</source>
      <translation>Last day:</translation>
    </message>
    <message>
      <source>比赛地点：</source>
      <translation>Venue:</translation>
    </message>
    <message>
      <source>报名截止：</source>
      <translation>Registration deadline:</translation>
    </message>
    <message>
      <source>组别：</source>
      <translation>Groups:</translation>
    </message>
    <message>
      <source>其余规程（轮次、名次区分、奖金……）来自模板，可在“设置”中修改。</source>
      <translation>Everything else (rounds, tiebreaks, prizes …) comes from the template and can be changed in Settings.</translation>
    </message>
    <message>
      <source>规程文件 %1</source>
      <translation>Regulation file %1</translation>
    </message>
  </context>
  <context>
    <name>OpenFile</name>
    <message>
      <source>接管该文件并继续编辑吗？</source>
      <translation>Take the file over and go on editing?</translation>
    </message>
    <message>
      <source>上次未正常关闭</source>
      <translation>Not closed properly last time</translation>
    </message>
    <message>
      <source>以只读方式打开吗？（只能查看和打印，不能修改）</source>
      <translation>Open it read-only? (view and print only, no changes)</translation>
    </message>
    <message>
      <source>文件正在被编辑</source>
      <translation>The file is being edited</translation>
    </message>
    <message>
      <source>从该备份恢复吗？（当前文件会先另存备份）</source>
      <translation>Restore that backup? (the current file is backed up first)</translation>
    </message>
    <message>
      <source>无法打开</source>
      <translation>Cannot open</translation>
    </message>
    <message>
      <source>文件已损坏</source>
      <translation>The file is corrupt</translation>
    </message>
    <message>
      <source>恢复失败</source>
      <translation>Restore failed</translation>
    </message>
  </context>
  <context>
    <name>OverrideDialog</name>
    <message>
      <source>确认改动</source>
      <translation>Apply change</translation>
    </message>
    <message>
      <source>改动后的对阵：</source>
      <translation>Pairing after the change:</translation>
    </message>
    <message>
      <source>理由（违反规则时必填）</source>
      <translation>Reason (required: rules are broken)</translation>
    </message>
    <message>
      <source>理由（可不填）</source>
      <translation>Reason (optional)</translation>
    </message>
    <message>
      <source>此改动违反编排规则：</source>
      <translation>This change breaks pairing rules:</translation>
    </message>
  </context>
  <context>
    <name>PairingTableModel</name>
    <message>
      <source>台次</source>
      <translation>Bd</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>红方</source>
      <translation>Red</translation>
    </message>
    <message>
      <source>单位</source>
      <translation>Unit</translation>
    </message>
    <message>
      <source>积分</source>
      <translation>Pts</translation>
    </message>
    <message>
      <source>结果</source>
      <translation>Result</translation>
    </message>
    <message>
      <source>黑方</source>
      <translation>Black</translation>
    </message>
  </context>
  <context>
    <name>PendingPanel</name>
    <message>
      <source>回车：确认　Delete：退回</source>
      <translation>Enter: confirm   Delete: set aside</translation>
    </message>
    <message>
      <source>台次</source>
      <translation>Boards</translation>
    </message>
    <message>
      <source>结果</source>
      <translation>Result</translation>
    </message>
    <message>
      <source>副裁判</source>
      <translation>Deputy</translation>
    </message>
    <message>
      <source>时间</source>
      <translation>Time</translation>
    </message>
    <message>
      <source>标记</source>
      <translation>Mark</translation>
    </message>
    <message>
      <source>冲突</source>
      <translation>Conflict</translation>
    </message>
    <message>
      <source>已一致</source>
      <translation>Agrees</translation>
    </message>
    <message>
      <source>待确认（%1）</source>
      <translation>To confirm (%1)</translation>
    </message>
    <message>
      <source>退回第 %1 台（%2）</source>
      <translation>Set aside board %1 (%2)</translation>
    </message>
    <message>
      <source>确认第 %1 台：%2（%3）</source>
      <translation>Confirm board %1: %2 (%3)</translation>
    </message>
  </context>
  <context>
    <name>PlayerDialog</name>
    <message>
      <source>无</source>
      <translation>none</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>身份证号</source>
      <translation>ID number</translation>
    </message>
    <message>
      <source>电话</source>
      <translation>Phone</translation>
    </message>
    <message>
      <source>组别</source>
      <translation>Group</translation>
    </message>
    <message>
      <source>性别</source>
      <translation>Sex</translation>
    </message>
    <message>
      <source>队伍</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>单位</source>
      <translation>Unit</translation>
    </message>
    <message>
      <source>等级分</source>
      <translation>Rating</translation>
    </message>
    <message>
      <source>新增棋手</source>
      <translation>Add player</translation>
    </message>
    <message>
      <source>修改棋手资料</source>
      <translation>Edit player</translation>
    </message>
    <message>
      <source>男</source>
      <translation>M</translation>
    </message>
    <message>
      <source>女</source>
      <translation>F</translation>
    </message>
    <message>
      <source>已缴费</source>
      <translation>Fee paid</translation>
    </message>
    <message>
      <source>已交保险</source>
      <translation>Insurance received</translation>
    </message>
    <message>
      <source>已签承诺书</source>
      <translation>Pledge signed</translation>
    </message>
    <message>
      <source>已报到</source>
      <translation>Checked in</translation>
    </message>
    <message>
      <source>破例理由</source>
      <translation>Late-entry reason</translation>
    </message>
    <message>
      <source>已过报名截止时间（%1）：破例接受的理由</source>
      <translation>Entries closed at %1: reason for accepting this one</translation>
    </message>
    <message>
      <source>不符合本组参赛资格：破例接受的理由</source>
      <translation>Outside this group's conditions: the reason to accept</translation>
    </message>
    <message>
      <source>逾期报名且不符合本组参赛资格：破例接受的理由</source>
      <translation>Late and outside this group's conditions: the reason to accept</translation>
    </message>
    <message>
      <source>无排名</source>
      <translation>Unranked</translation>
    </message>
    <message>
      <source>等级分排行榜上的名次（第几名），用于按排名限定参赛资格的组别</source>
      <translation>The place on the rating list (1 = top), for groups that admit players by rank</translation>
    </message>
    <message>
      <source>等级分排名</source>
      <translation>Rating-list rank</translation>
    </message>
  </context>
  <context>
    <name>PlayerTableModel</name>
    <message>
      <source>正常</source>
      <translation>active</translation>
    </message>
    <message>
      <source>退赛</source>
      <translation>withdrawn</translation>
    </message>
    <message>
      <source>取消成绩</source>
      <translation>disqualified</translation>
    </message>
    <message>
      <source>男</source>
      <translation>M</translation>
    </message>
    <message>
      <source>女</source>
      <translation>F</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>性别</source>
      <translation>Sex</translation>
    </message>
    <message>
      <source>年龄</source>
      <translation>Age</translation>
    </message>
    <message>
      <source>队伍</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>单位</source>
      <translation>Unit</translation>
    </message>
    <message>
      <source>等级分</source>
      <translation>Rating</translation>
    </message>
    <message>
      <source>缴费</source>
      <translation>Fee</translation>
    </message>
    <message>
      <source>保险</source>
      <translation>Insur.</translation>
    </message>
    <message>
      <source>承诺书</source>
      <translation>Pledge</translation>
    </message>
    <message>
      <source>报到</source>
      <translation>Present</translation>
    </message>
    <message>
      <source>状态</source>
      <translation>Status</translation>
    </message>
    <message>
      <source>电话</source>
      <translation>Phone</translation>
    </message>
    <message>
      <source>（不计名次）</source>
      <translation> (unranked)</translation>
    </message>
  </context>
  <context>
    <name>PlayersView</name>
    <message>
      <source>缴费</source>
      <translation>Fee</translation>
    </message>
    <message>
      <source>保险</source>
      <translation>Insur.</translation>
    </message>
    <message>
      <source>承诺书</source>
      <translation>Pledge</translation>
    </message>
    <message>
      <source>报到</source>
      <translation>Present</translation>
    </message>
    <message>
      <source>查找：姓名、拼音首字母（如 zs）、队伍、序号</source>
      <translation>Find: name, pinyin initials (e.g. zs), team, number</translation>
    </message>
    <message>
      <source>抽签定序号</source>
      <translation>Draw numbers</translation>
    </message>
    <message>
      <source>新增棋手……</source>
      <translation>Add player…</translation>
    </message>
    <message>
      <source>修改……</source>
      <translation>Edit…</translation>
    </message>
    <message>
      <source>从 Excel 导入……</source>
      <translation>Import from Excel…</translation>
    </message>
    <message>
      <source>导出报名表模板……</source>
      <translation>Export the registration form…</translation>
    </message>
    <message>
      <source>抽签定序号……</source>
      <translation>Draw numbers…</translation>
    </message>
    <message>
      <source>导出报名表模板</source>
      <translation>Export the registration form</translation>
    </message>
    <message>
      <source>报名表.xlsx</source>
      <translation>registration.xlsx</translation>
    </message>
    <message>
      <source>Excel 文件 (*.xlsx)</source>
      <translation>Excel files (*.xlsx)</translation>
    </message>
    <message>
      <source>导入报名表</source>
      <translation>Import registration form</translation>
    </message>
    <message>
      <source>无法导入</source>
      <translation>Cannot import</translation>
    </message>
    <message>
      <source>无法导出</source>
      <translation>Cannot export</translation>
    </message>
    <message>
      <source>报名表模板已导出：%1</source>
      <translation>Registration form exported: %1</translation>
    </message>
    <message>
      <source>%1：抽签种子（记录在案，可复核）</source>
      <translation>%1: seed of the lot (recorded, can be checked)</translation>
    </message>
    <message>
      <source>序号已抽签产生（种子 %1）</source>
      <translation>Numbers drawn by lot (seed %1)</translation>
    </message>
    <message>
      <source>%1：%2 %3</source>
      <translation>%1: %2 %3</translation>
    </message>
    <message>
      <source>已导入 %1 名棋手</source>
      <translation>%1 players imported</translation>
    </message>
    <message>
      <source>显示 %1 / %2 人</source>
      <translation>Showing %1 of %2</translation>
    </message>
    <message>
      <source>计成绩不计名次……</source>
      <translation>Unranked (plays, no place)…</translation>
    </message>
    <message>
      <source>请先选中一名已有序号的棋手</source>
      <translation>Select a player with a sequence number first</translation>
    </message>
    <message>
      <source>%1 号 %2 计成绩不计名次的理由：</source>
      <translation>Why no. %1 %2 plays unranked:</translation>
    </message>
    <message>
      <source>%1 号 %2 恢复计名次的理由：</source>
      <translation>Why no. %1 %2 is ranked again:</translation>
    </message>
    <message>
      <source>计成绩不计名次</source>
      <translation>Unranked</translation>
    </message>
    <message>
      <source>%1 号 %2：计成绩不计名次</source>
      <translation>No. %1 %2: plays unranked</translation>
    </message>
    <message>
      <source>%1 号 %2：恢复计名次</source>
      <translation>No. %1 %2: ranked again</translation>
    </message>
  </context>
  <context>
    <name>PrintMenu</name>
    <message>
      <source>台卡</source>
      <translation>Table cards</translation>
    </message>
    <message>
      <source>对阵表</source>
      <translation>Pairing list</translation>
    </message>
    <message>
      <source>成绩公告</source>
      <translation>Round results</translation>
    </message>
    <message>
      <source>名次表</source>
      <translation>Standings</translation>
    </message>
    <message>
      <source>个人成绩总表</source>
      <translation>Crosstable</translation>
    </message>
    <message>
      <source>团体名次表</source>
      <translation>Team standings</translation>
    </message>
    <message>
      <source>奖励名单</source>
      <translation>Prize list</translation>
    </message>
    <message>
      <source>奖金发放签收表（内部）</source>
      <translation>Prize payout sheet (internal)</translation>
    </message>
    <message>
      <source>录谱纸</source>
      <translation>Score sheets</translation>
    </message>
    <message>
      <source>参赛名单</source>
      <translation>Entry list</translation>
    </message>
    <message>
      <source>淘汰赛对阵图</source>
      <translation>Knockout bracket</translation>
    </message>
      <message>
      <source>团体赛台卡</source>
      <translation>Team match cards</translation>
    </message>
    <message>
      <source>团体赛对阵单（队长签字）</source>
      <translation>Team match score sheets (captains sign)</translation>
    </message>
    <message>
      <source>排阵单</source>
      <translation>Line-up forms</translation>
    </message>
    <message>
      <source>团体赛名次表</source>
      <translation>Team standings</translation>
    </message>
    <message>
      <source>团体赛成绩总表</source>
      <translation>Team crosstable</translation>
    </message>
    <message>
      <source>台次奖名单</source>
      <translation>Board prizes</translation>
    </message>
</context>
  <context>
    <name>PrintPreviewDialog</name>
    <message>
      <source>无法保存</source>
      <translation>Cannot save</translation>
    </message>
    <message>
      <source>打印…</source>
      <translation>Print…</translation>
    </message>
    <message>
      <source>另存为 PDF…</source>
      <translation>Save as PDF…</translation>
    </message>
    <message>
      <source>存为长图（微信）…</source>
      <translation>Save as long picture (WeChat)…</translation>
    </message>
    <message>
      <source>另存为 PDF</source>
      <translation>Save as PDF</translation>
    </message>
    <message>
      <source>存为长图</source>
      <translation>Save as long picture</translation>
    </message>
    <message>
      <source>共 %1 页</source>
      <translation>%1 pages</translation>
    </message>
  </context>
  <context>
    <name>PrizeTableModel</name>
    <message>
      <source>奖项</source>
      <translation>Prize</translation>
    </message>
    <message>
      <source>名次</source>
      <translation>Place</translation>
    </message>
    <message>
      <source>获奖者</source>
      <translation>Winner</translation>
    </message>
    <message>
      <source>单位</source>
      <translation>Unit</translation>
    </message>
    <message>
      <source>金额（元）</source>
      <translation>Amount (yuan)</translation>
    </message>
    <message>
      <source>（空缺）</source>
      <translation>(vacant)</translation>
    </message>
    <message>
      <source>个人</source>
      <translation>Individual</translation>
    </message>
    <message>
      <source>团体</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>小计 %1 项</source>
      <translation>Subtotal, %1 prizes</translation>
    </message>
  </context>
  <context>
    <name>PrizesView</name>
    <message>
      <source>奖金按最终名次发放；比赛结束前按目前名次预览。金额为税前人民币（元）。</source>
      <translation>Prizes follow the final ranking; before the end this is a preview from the current standings. Amounts are pre-tax yuan.</translation>
    </message>
    <message>
      <source>奖金总额 %1 元</source>
      <translation>Prize money total %1 yuan</translation>
    </message>
    <message>
      <source>（实发 %1 元）</source>
      <translation> (paid %1 yuan)</translation>
    </message>
    <message>
      <source>%1：%2 元</source>
      <translation>%1: %2 yuan</translation>
    </message>
  </context>
  <context>
    <name>RecordsView</name>
    <message>
      <source>导出本轮棋谱……</source>
      <translation>Export the round's records…</translation>
    </message>
    <message>
      <source>打开 PGN……</source>
      <translation>Open PGN…</translation>
    </message>
    <message>
      <source>粘贴 PGN</source>
      <translation>Paste PGN</translation>
    </message>
    <message>
      <source>重新开始</source>
      <translation>Start again</translation>
    </message>
    <message>
      <source>保存</source>
      <translation>Save</translation>
    </message>
    <message>
      <source>打印……</source>
      <translation>Print…</translation>
    </message>
    <message>
      <source>登记纸质棋谱……</source>
      <translation>Register a paper record…</translation>
    </message>
    <message>
      <source>棋谱只交纸质：登记已交及其回合数（和棋不足规定回合自动记犯规）</source>
      <translation>The record was handed in on paper only: register it with its move count (a draw under the minimum raises the violations)</translation>
    </message>
    <message>
      <source>指定本台录谱</source>
      <translation>Designate this board</translation>
    </message>
    <message>
      <source>前三轮由裁判组指定获胜者录谱</source>
      <translation>Rounds 1–3: the arbiters designate the winners who record</translation>
    </message>
    <message>
      <source>打开棋谱</source>
      <translation>Open a game record</translation>
    </message>
    <message>
      <source>棋谱 (*.pgn *.PGN)</source>
      <translation>Game records (*.pgn *.PGN)</translation>
    </message>
    <message>
      <source>登记纸质棋谱</source>
      <translation>Register a paper record</translation>
    </message>
    <message>
      <source>导出本轮棋谱</source>
      <translation>Export the round's records</translation>
    </message>
    <message>
      <source>棋谱 (*.pgn)</source>
      <translation>Game records (*.pgn)</translation>
    </message>
    <message>
      <source>打印棋谱</source>
      <translation>Print the game</translation>
    </message>
    <message>
      <source>PDF (*.pdf)</source>
      <translation>PDF (*.pdf)</translation>
    </message>
    <message>
      <source>轮次：</source>
      <translation>Round:</translation>
    </message>
    <message>
      <source>已读入 %1 回合，请核对后保存</source>
      <translation>Read %1 moves; check them, then save</translation>
    </message>
    <message>
      <source>第 %1 台棋谱的回合数：</source>
      <translation>Moves in the record of board %1:</translation>
    </message>
    <message>
      <source>第 %1 台已指定录谱</source>
      <translation>Board %1 designated for recording</translation>
    </message>
    <message>
      <source>已导出 %1</source>
      <translation>Exported %1</translation>
    </message>
    <message>
      <source>已生成 %1</source>
      <translation>Written %1</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>待交棋谱 %1 份</source>
      <translation>%1 records owed</translation>
    </message>
    <message>
      <source>第 %1 台纸质棋谱已登记，%2 回合</source>
      <translation>Paper record of board %1 registered, %2 moves</translation>
    </message>
    <message>
      <source>第 %1 台棋谱已保存，%2 回合</source>
      <translation>Board %1: record saved, %2 moves</translation>
    </message>
    <message>
      <source>第 %1 台：%2 对 %3</source>
      <translation>Board %1: %2 v %3</translation>
    </message>
  </context>
  <context>
    <name>ResultEntry</name>
    <message>
      <source>台次+结果，如 12 1 回车</source>
      <translation>board + result, e.g. 12 1 Enter</translation>
    </message>
    <message>
      <source>Enter 或 Y 确认，Esc 取消</source>
      <translation>Enter or Y to confirm, Esc to cancel</translation>
    </message>
    <message>
      <source>有歧义：请加空格</source>
      <translation>ambiguous: add a space</translation>
    </message>
    <message>
      <source>第 %1 台：请输入结果</source>
      <translation>board %1: type the result</translation>
    </message>
    <message>
      <source>无法识别</source>
      <translation>not understood</translation>
    </message>
  </context>
  <context>
    <name>RoundsView</name>
    <message>
      <source>编排下一轮</source>
      <translation>Pair next round</translation>
    </message>
    <message>
      <source>撤销本轮编排</source>
      <translation>Unpair this round</translation>
    </message>
    <message>
      <source>只在本轮尚未录入任何成绩时可用</source>
      <translation>Only before any result of the round is entered</translation>
    </message>
    <message>
      <source>结束本轮</source>
      <translation>Close round</translation>
    </message>
    <message>
      <source>本台操作…</source>
      <translation>Board actions…</translation>
    </message>
    <message>
      <source>调整编排、判负、犯规（也可在表格中按右键或菜单键）</source>
      <translation>Pairing edits, forfeits, violations (also right click or the Menu key in the table)</translation>
    </message>
    <message>
      <source>1 红胜　0 黑胜　= 或 5 和　+ 黑弃权　- 红弃权　* 双弃权　↑↓ 换台　Ctrl+Z 撤销</source>
      <translation>1 Red wins   0 Black wins   = or 5 draw   + Black forfeits   - Red forfeits   * both forfeit   ↑↓ board   Ctrl+Z undo</translation>
    </message>
    <message>
      <source>本轮待交棋谱</source>
      <translation>Records owed this round</translation>
    </message>
    <message>
      <source>正在编排……</source>
      <translation>Pairing…</translation>
    </message>
    <message>
      <source>没有选中的台次</source>
      <translation>no board selected</translation>
    </message>
    <message>
      <source>第 %1 台 %2</source>
      <translation>board %1: %2</translation>
    </message>
    <message>
      <source>交换先后手</source>
      <translation>Swap colours</translation>
    </message>
    <message>
      <source>协商结果（双方弃权）…</source>
      <translation>Agreed result (both forfeit)…</translation>
    </message>
    <message>
      <source>交换两名棋手</source>
      <translation>Swap two players</translation>
    </message>
    <message>
      <source>指定对阵</source>
      <translation>Set pairing</translation>
    </message>
    <message>
      <source>编排说明</source>
      <translation>Pairing explanation</translation>
    </message>
    <message>
      <source>第 %1 轮 %2 号 %3：%4判负</source>
      <translation>Round %1, no. %2 %3: loss for %4</translation>
    </message>
    <message>
      <source>协商结果（双方弃权）</source>
      <translation>Agreed result (both forfeit)</translation>
    </message>
    <message>
      <source>第 %1 轮第 %2 台：双方弃权</source>
      <translation>Round %1 board %2: both forfeit</translation>
    </message>
    <message>
      <source>记犯规</source>
      <translation>Record a violation</translation>
    </message>
    <message>
      <source>犯规的理由：</source>
      <translation>Reason for the violation:</translation>
    </message>
    <message>
      <source>已记录 %1 号 %2 犯规：%3</source>
      <translation>Violation recorded for no. %1 %2: %3</translation>
    </message>
    <message>
      <source>退赛</source>
      <translation>Withdraw</translation>
    </message>
    <message>
      <source>%1 号 %2 退赛</source>
      <translation>No. %1 %2 withdraws</translation>
    </message>
    <message>
      <source>已赛对局成绩有效</source>
      <translation>Games played stand</translation>
    </message>
    <message>
      <source>已赛对局作废（对手按弃权胜计）</source>
      <translation>Games played are annulled (opponents win by forfeit)</translation>
    </message>
    <message>
      <source>取消成绩</source>
      <translation>Disqualify</translation>
    </message>
    <message>
      <source>取消成绩的理由：</source>
      <translation>Reason for the disqualification:</translation>
    </message>
    <message>
      <source>已取消 %1 号 %2 的成绩</source>
      <translation>No. %1 %2 disqualified</translation>
    </message>
    <message>
      <source>台次</source>
      <translation>Board</translation>
    </message>
    <message>
      <source>录谱人</source>
      <translation>Recorder</translation>
    </message>
    <message>
      <source>原因</source>
      <translation>Why</translation>
    </message>
    <message>
      <source>录入成绩：</source>
      <translation>Results:</translation>
    </message>
    <message>
      <source>尚未编排</source>
      <translation>Not paired yet</translation>
    </message>
    <message>
      <source>第 %1 台：%2 %3 — %4 %5</source>
      <translation>Board %1: %2 %3 — %4 %5</translation>
    </message>
    <message>
      <source>轮空：%1 %2</source>
      <translation>Bye: %1 %2</translation>
    </message>
    <message>
      <source>第 %1 轮已编排：%2 台，随机种子 %3</source>
      <translation>Round %1 paired: %2 boards, seed %3</translation>
    </message>
    <message>
      <source>第 %1 轮编排已撤销（Ctrl+Z 恢复）</source>
      <translation>Round %1 unpaired (Ctrl+Z restores it)</translation>
    </message>
    <message>
      <source>第 %1 轮已结束</source>
      <translation>Round %1 closed</translation>
    </message>
    <message>
      <source>清除第 %1 台的成绩 %2？</source>
      <translation>Clear the result of board %1 (%2)?</translation>
    </message>
    <message>
      <source>第 %1 台已录入 %2，改为 %3？</source>
      <translation>Board %1 already has %2. Change it to %3?</translation>
    </message>
    <message>
      <source>本轮没有第 %1 台</source>
      <translation>This round has no board %1</translation>
    </message>
    <message>
      <source>（现为 %1，将询问）</source>
      <translation> (now %1: you will be asked)</translation>
    </message>
    <message>
      <source>红方</source>
      <translation>Red</translation>
    </message>
    <message>
      <source>黑方</source>
      <translation>Black</translation>
    </message>
    <message>
      <source>为什么是这个对手/这个颜色</source>
      <translation>Why this opponent / this colour</translation>
    </message>
    <message>
      <source>交换两名棋手…</source>
      <translation>Swap two players…</translation>
    </message>
    <message>
      <source>指定对阵…</source>
      <translation>Set pairing…</translation>
    </message>
    <message>
      <source>记犯规…</source>
      <translation>Record a violation…</translation>
    </message>
    <message>
      <source>退赛…</source>
      <translation>Withdraw…</translation>
    </message>
    <message>
      <source>取消成绩…</source>
      <translation>Disqualify…</translation>
    </message>
    <message>
      <source>%1：已改动第 %2 台</source>
      <translation>%1: boards %2 changed</translation>
    </message>
    <message>
      <source>第 %1 台交换先后手</source>
      <translation>Swap colours on board %1</translation>
    </message>
    <message>
      <source>与 %1 号交换位置的棋手序号：</source>
      <translation>Number of the player to swap with no. %1:</translation>
    </message>
    <message>
      <source>交换 %1 号与 %2 号</source>
      <translation>Swap no. %1 and no. %2</translation>
    </message>
    <message>
      <source>%1 号的对手（序号）：</source>
      <translation>Opponent of no. %1 (number):</translation>
    </message>
    <message>
      <source>指定 %1 号对 %2 号</source>
      <translation>Pair no. %1 against no. %2</translation>
    </message>
    <message>
      <source>%1 号 %2 判负的理由：</source>
      <translation>Reason for the loss of no. %1 %2:</translation>
    </message>
    <message>
      <source>第 %1 台判双方弃权的理由：</source>
      <translation>Reason for a double forfeit on board %1:</translation>
    </message>
    <message>
      <source>%1 号 %2 的犯规类型：</source>
      <translation>Kind of violation by no. %1 %2:</translation>
    </message>
    <message>
      <source>%1 号 %2 退赛的理由：</source>
      <translation>Reason for the withdrawal of no. %1 %2:</translation>
    </message>
    <message>
      <source>取消 %1 号 %2 的成绩：</source>
      <translation>Disqualify no. %1 %2:</translation>
    </message>
    <message>
      <source>本轮成绩已全部录入</source>
      <translation>All results entered</translation>
    </message>
    <message>
      <source>本轮待交棋谱（%1）</source>
      <translation>Records owed this round (%1)</translation>
    </message>
    <message>
      <source>以下棋谱未交，结束本轮将记为拒不录谱（犯规）：</source>
      <translation>These records were not handed in; closing the round records a refusal (violation) for each:</translation>
    </message>
    <message>
      <source>轮空：%1 号</source>
      <translation>Bye: no. %1</translation>
    </message>
    <message>
      <source>因连续弃权退赛：%1 号</source>
      <translation>Withdrawn for consecutive forfeits: no. %1</translation>
    </message>
    <message>
      <source>更正成绩</source>
      <translation>Correct result</translation>
    </message>
    <message>
      <source>第 %1 台：%2 → %3</source>
      <translation>Board %1: %2 → %3</translation>
    </message>
    <message>
      <source>第 %1 台的成绩未改动</source>
      <translation>The result of board %1 was not changed</translation>
    </message>
    <message>
      <source>迟到判负…</source>
      <translation>Loss for lateness…</translation>
    </message>
    <message>
      <source>离席判负…</source>
      <translation>Loss for leaving the table…</translation>
    </message>
    <message>
      <source>手机判负…</source>
      <translation>Loss for a phone…</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>更正第 %1 台成绩的理由：</source>
      <translation>Reason for correcting board %1:</translation>
    </message>
    <message>
      <source>未录入 %1 台</source>
      <translation>%1 boards pending</translation>
    </message>
    <message>
      <source>第 %1 台 %2 %3：%4</source>
      <translation>Board %1, %2 %3: %4</translation>
    </message>
  </context>
  <context>
    <name>SettingsView</name>
    <message>
      <source>赛事名称</source>
      <translation>Event name</translation>
    </message>
    <message>
      <source>开始日期</source>
      <translation>Start date</translation>
    </message>
    <message>
      <source>结束日期</source>
      <translation>End date</translation>
    </message>
    <message>
      <source>比赛地点</source>
      <translation>Venue</translation>
    </message>
    <message>
      <source>积分编排赛用时</source>
      <translation>Swiss time control</translation>
    </message>
    <message>
      <source>胜</source>
      <translation>Win</translation>
    </message>
    <message>
      <source>和（红方）</source>
      <translation>Draw (Red)</translation>
    </message>
    <message>
      <source>和（黑方）</source>
      <translation>Draw (Black)</translation>
    </message>
    <message>
      <source>负</source>
      <translation>Loss</translation>
    </message>
    <message>
      <source>轮空</source>
      <translation>Bye</translation>
    </message>
    <message>
      <source>对方弃权</source>
      <translation>Opponent forfeits</translation>
    </message>
    <message>
      <source>弃权</source>
      <translation>Forfeit</translation>
    </message>
    <message>
      <source>慢棋用时</source>
      <translation>Slow game time control</translation>
    </message>
    <message>
      <source>快棋用时</source>
      <translation>Rapid game time control</translation>
    </message>
    <message>
      <source>附加赛用时</source>
      <translation>Deciding game time control</translation>
    </message>
    <message>
      <source>附加赛和棋</source>
      <translation>Drawn deciding game</translation>
    </message>
    <message>
      <source>第5–8名</source>
      <translation>Places 5–8</translation>
    </message>
    <message>
      <source>同队回避</source>
      <translation>Team avoidance</translation>
    </message>
    <message>
      <source>序号产生办法</source>
      <translation>Sequence numbers by</translation>
    </message>
    <message>
      <source>同分组内顺序</source>
      <translation>Order within a score group</translation>
    </message>
    <message>
      <source>迟到报名者补给轮空分</source>
      <translation>Late entries get bye points for missed rounds</translation>
    </message>
    <message>
      <source>轮空和对方弃权计为胜局</source>
      <translation>Byes and forfeit wins count as wins</translation>
    </message>
    <message>
      <source>淘汰赛对局计入后走局数</source>
      <translation>Knockout games count as Black games</translation>
    </message>
    <message>
      <source>计分队员人数</source>
      <translation>Members counted</translation>
    </message>
    <message>
      <source>计算团体成绩的最少队员人数</source>
      <translation>Fewest ranked members for a team result</translation>
    </message>
    <message>
      <source>前几轮由裁判指定录谱</source>
      <translation>Rounds with recorders designated by the arbiter</translation>
    </message>
    <message>
      <source>此后前几台胜方录谱</source>
      <translation>Then the winners on the top boards record</translation>
    </message>
    <message>
      <source>和棋录谱方</source>
      <translation>Recorder of a draw</translation>
    </message>
    <message>
      <source>和棋录谱最少回合</source>
      <translation>Fewest moves in a recorded draw</translation>
    </message>
    <message>
      <source>和棋回合不足时记犯规</source>
      <translation>Short draw: violation charged to</translation>
    </message>
    <message>
      <source>迟到判负（分钟）</source>
      <translation>Late arrival loses after (minutes)</translation>
    </message>
    <message>
      <source>连续弃权几轮取消后续比赛（0＝不取消）</source>
      <translation>Forfeits in a row before withdrawal (0 = never)</translation>
    </message>
    <message>
      <source>取消资格者的对局</source>
      <translation>Games of a disqualified player</translation>
    </message>
    <message>
      <source>第几回合前不得提和</source>
      <translation>No draw offer before move</translation>
    </message>
    <message>
      <source>自然限着（回合）</source>
      <translation>Natural move limit (moves)</translation>
    </message>
    <message>
      <source>参赛人数上限</source>
      <translation>Capacity</translation>
    </message>
    <message>
      <source>报名截止</source>
      <translation>Registration deadline</translation>
    </message>
    <message>
      <source>年龄上限（周岁）</source>
      <translation>Age limit (full years)</translation>
    </message>
    <message>
      <source>报名费（元）</source>
      <translation>Fee (yuan)</translation>
    </message>
    <message>
      <source>比赛首日（计算年龄）</source>
      <translation>First day of play (for ages)</translation>
    </message>
    <message>
      <source>不回避</source>
      <translation>None</translation>
    </message>
    <message>
      <source>首轮回避</source>
      <translation>Round 1 only</translation>
    </message>
    <message>
      <source>每轮回避</source>
      <translation>Every round</translation>
    </message>
    <message>
      <source>抽签</source>
      <translation>Lot</translation>
    </message>
    <message>
      <source>按等级分</source>
      <translation>By rating</translation>
    </message>
    <message>
      <source>按序号</source>
      <translation>By sequence number</translation>
    </message>
    <message>
      <source>按名次区分办法</source>
      <translation>By tiebreaks</translation>
    </message>
    <message>
      <source>和棋黑胜</source>
      <translation>Black wins a draw</translation>
    </message>
    <message>
      <source>换先重赛直至分出胜负</source>
      <translation>Replay with colours swapped until decisive</translation>
    </message>
    <message>
      <source>负者继续比赛</source>
      <translation>Losers play on</translation>
    </message>
    <message>
      <source>按第一阶段名次</source>
      <translation>By Swiss standing</translation>
    </message>
    <message>
      <source>成绩保留</source>
      <translation>Results stand</translation>
    </message>
    <message>
      <source>对手均计弃权胜</source>
      <translation>Opponents get forfeit wins</translation>
    </message>
    <message>
      <source>双方</source>
      <translation>Both players</translation>
    </message>
    <message>
      <source>仅黑方</source>
      <translation>Black only</translation>
    </message>
    <message>
      <source>红方</source>
      <translation>Red</translation>
    </message>
    <message>
      <source>黑方</source>
      <translation>Black</translation>
    </message>
    <message>
      <source>个人</source>
      <translation>Individual</translation>
    </message>
    <message>
      <source>团体</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>赛事</source>
      <translation>Event</translation>
    </message>
    <message>
      <source>计分</source>
      <translation>Points</translation>
    </message>
    <message>
      <source>用时与淘汰赛</source>
      <translation>Time controls and knockout</translation>
    </message>
    <message>
      <source>编排</source>
      <translation>Pairing</translation>
    </message>
    <message>
      <source>录谱</source>
      <translation>Records</translation>
    </message>
    <message>
      <source>纪律</source>
      <translation>Discipline</translation>
    </message>
    <message>
      <source>报名</source>
      <translation>Registration</translation>
    </message>
    <message>
      <source>名次区分</source>
      <translation>Tiebreaks</translation>
    </message>
    <message>
      <source>奖金</source>
      <translation>Prizes</translation>
    </message>
    <message>
      <source>修改理由（记入日志）</source>
      <translation>Reason for the change (logged)</translation>
    </message>
    <message>
      <source>保存规程</source>
      <translation>Save regulation</translation>
    </message>
    <message>
      <source>放弃修改</source>
      <translation>Discard changes</translation>
    </message>
    <message>
      <source>导入 TOML……</source>
      <translation>Import TOML…</translation>
    </message>
    <message>
      <source>导出 TOML……</source>
      <translation>Export TOML…</translation>
    </message>
    <message>
      <source>添加组别</source>
      <translation>Add group</translation>
    </message>
    <message>
      <source>删除组别</source>
      <translation>Remove group</translation>
    </message>
    <message>
      <source>淘汰赛人数为 0 表示全程积分编排；淘汰赛在积分编排轮数之后进行。</source>
      <translation>Knockout size 0 means Swiss throughout; the knockout follows the Swiss rounds.</translation>
    </message>
    <message>
      <source>上移</source>
      <translation>Move up</translation>
    </message>
    <message>
      <source>下移</source>
      <translation>Move down</translation>
    </message>
    <message>
      <source>仍相同时按序号排列；“前轮成绩”只能放在最后。</source>
      <translation>Still equal: by sequence number. “Previous rounds” can only be last.</translation>
    </message>
    <message>
      <source>添加奖项</source>
      <translation>Add prize table</translation>
    </message>
    <message>
      <source>删除奖项</source>
      <translation>Remove prize table</translation>
    </message>
    <message>
      <source>规程已保存</source>
      <translation>Regulation saved</translation>
    </message>
    <message>
      <source>导入规程</source>
      <translation>Import regulation</translation>
    </message>
    <message>
      <source>规程 (*.toml)</source>
      <translation>Regulation (*.toml)</translation>
    </message>
    <message>
      <source>导出规程</source>
      <translation>Export regulation</translation>
    </message>
    <message>
      <source>组别</source>
      <translation>Group</translation>
    </message>
    <message>
      <source>团体赛</source>
      <translation>Teams</translation>
    </message>
    <message>
      <source>总轮数</source>
      <translation>Rounds</translation>
    </message>
    <message>
      <source>积分编排轮数</source>
      <translation>Swiss rounds</translation>
    </message>
    <message>
      <source>淘汰赛人数</source>
      <translation>Knockout size</translation>
    </message>
    <message>
      <source>积分相同时依次比较（勾选者使用）：</source>
      <translation>On equal points compare in order (ticked ones are used):</translation>
    </message>
    <message>
      <source>奖项</source>
      <translation>Prize</translation>
    </message>
    <message>
      <source>类别</source>
      <translation>Kind</translation>
    </message>
    <message>
      <source>各名次金额（元，逗号分隔）</source>
      <translation>Amounts by place (yuan, comma-separated; 300×6 repeats)</translation>
    </message>
    <message>
      <source>合计（元）</source>
      <translation>Total (yuan)</translation>
    </message>
    <message>
      <source>新奖项</source>
      <translation>New prize table</translation>
    </message>
    <message>
      <source>奖金总额 %1 元</source>
      <translation>Prize money total %1 yuan</translation>
    </message>
    <message>
      <source>规程没有改动</source>
      <translation>The regulation is unchanged</translation>
    </message>
    <message>
      <source>已从 %1 导入规程</source>
      <translation>Regulation imported from %1</translation>
    </message>
    <message>
      <source>规程已导出到 %1</source>
      <translation>Regulation exported to %1</translation>
    </message>
    <message>
      <source>新组别</source>
      <translation>New group</translation>
    </message>
    <message>
      <source>未保存：%1（已恢复原设置）</source>
      <translation>Not saved: %1 (the stored settings are shown again)</translation>
    </message>
    <message>
      <source>未导入：%1</source>
      <translation>Not imported: %1</translation>
    </message>
    <message>
      <source>按被淘汰轮次</source>
      <translation>By the round lost in</translation>
    </message>
    <message>
      <source>第一轮配对办法</source>
      <translation>Round 1 pairing</translation>
    </message>
    <message>
      <source>连续同色最多（局）</source>
      <translation>Most games of one colour in a row</translation>
    </message>
    <message>
      <source>先后手之差最多（局）</source>
      <translation>Largest Red-Black difference</translation>
    </message>
    <message>
      <source>因连续弃权退赛者不计名次</source>
      <translation>Players withdrawn for consecutive forfeits are not ranked</translation>
    </message>
    <message>
      <source>上半区对下半区（1对n/2+1）</source>
      <translation>Top half against bottom half (1 v n/2+1)</translation>
    </message>
    <message>
      <source>上下半区抽签配对</source>
      <translation>Halves, opponents drawn by lot</translation>
    </message>
    <message>
      <source>相邻序号（1-2、4-3、5-6…）</source>
      <translation>Neighbouring numbers (1-2, 4-3, 5-6 ...)</translation>
    </message>
    <message>
      <source>赛制……</source>
      <translation>Format...</translation>
    </message>
    <message>
      <source>选择现成赛制（循环赛、淘汰赛……）或逐项编辑各阶段</source>
      <translation>Choose a ready-made format (round robin, knockout ...) or edit each stage</translation>
    </message>
    <message>
      <source>赛制</source>
      <translation>Format</translation>
    </message>
    <message>
      <source>团体成绩计算办法</source>
      <translation>Team ranking method</translation>
    </message>
    <message>
      <source>团体成绩相同时依次比较（best_place, member_points, places_sum, member_places）</source>
      <translation>Teams level on the sum: compare in turn (best_place, member_points, places_sum, member_places)</translation>
    </message>
    <message>
      <source>名次之和（少者列前）</source>
      <translation>Sum of places (fewer first)</translation>
    </message>
    <message>
      <source>积分之和（多者列前）</source>
      <translation>Sum of points (more first)</translation>
    </message>
  </context>
  <context>
    <name>StandingsTableModel</name>
    <message>
      <source>区分依据</source>
      <translation>Separated by</translation>
    </message>
    <message>
      <source>名次</source>
      <translation>Rank</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>单位</source>
      <translation>Unit</translation>
    </message>
    <message>
      <source>积分</source>
      <translation>Points</translation>
    </message>
  </context>
  <context>
    <name>StandingsView</name>
    <message>
      <source>最终名次</source>
      <translation>Final ranking</translation>
    </message>
    <message>
      <source>为什么排在前面？</source>
      <translation>Why above?</translation>
    </message>
    <message>
      <source>选中两行（Ctrl+单击），或在一行上点右键与上一行比较</source>
      <translation>Select two rows (Ctrl+click), or right-click a row to compare with its neighbour</translation>
    </message>
    <message>
      <source>有并列仍无法区分者，按序号排列（序号小者在前）。</source>
      <translation> Ties still unbroken are ordered by sequence number (lower first).</translation>
    </message>
    <message>
      <source>名次截至：</source>
      <translation>Standings after:</translation>
    </message>
    <message>
      <source>赛前</source>
      <translation>Before round 1</translation>
    </message>
    <message>
      <source>名次区分办法：%1。</source>
      <translation>Tiebreak order: %1.</translation>
    </message>
    <message>
      <source>为什么排在前面</source>
      <translation>Why above</translation>
    </message>
    <message>
      <source>请选中两名棋手</source>
      <translation>Select two players</translation>
    </message>
    <message>
      <source>第 %1 轮后</source>
      <translation>After round %1</translation>
    </message>
    <message>
      <source>最终名次在第 %1 轮（最后一轮）结束后产生</source>
      <translation>The final ranking exists after round %1 (the last round)</translation>
    </message>
    <message>
      <source>第 %1 轮后（未完）</source>
      <translation>after round %1 (incomplete)</translation>
    </message>
    <message>
      <source>取消资格（不排名次）：%1</source>
      <translation>Disqualified (not ranked): %1</translation>
    </message>
    <message>
      <source>为什么 %1 排在 %2 之前？</source>
      <translation>Why is %1 above %2?</translation>
    </message>
  </context>
  <context>
    <name>TeamTableModel</name>
    <message>
      <source>名次</source>
      <translation>Rank</translation>
    </message>
    <message>
      <source>队名</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>计分队员（名次）</source>
      <translation>Counted members (place)</translation>
    </message>
    <message>
      <source>名次之和</source>
      <translation>Sum of places</translation>
    </message>
    <message>
      <source>最高名次</source>
      <translation>Best place</translation>
    </message>
    <message>
      <source>区分依据</source>
      <translation>Separated by</translation>
    </message>
    <message>
      <source>最高个人名次</source>
      <translation>Best individual place</translation>
    </message>
    <message>
      <source>队员积分依次比较</source>
      <translation>members' points in turn</translation>
    </message>
    <message>
      <source>队员名次依次比较</source>
      <translation>members' places in turn</translation>
    </message>
    <message>
      <source>积分之和</source>
      <translation>Sum of points</translation>
    </message>
  </context>
  <context>
    <name>TeamsView</name>
    <message>
      <source>比赛尚未结束：团体名次按目前的个人名次计算，仅供参考。</source>
      <translation>The event is not over: the team ranking uses the current individual standings, for reference only.</translation>
    </message>
    <message>
      <source>每队取个人名次最好的 %1 名队员的名次相加，和小者列前；相同时个人最高名次者列前。</source>
      <translation>Each team adds the places of its best %1 members; the lower sum ranks higher, then the best individual place.</translation>
    </message>
    <message>
      <source>%1 团体名次（最终）</source>
      <translation>%1 team ranking (final)</translation>
    </message>
    <message>
      <source>不计团体成绩</source>
      <translation>No team result</translation>
    </message>
    <message>
      <source>%1 团体名次</source>
      <translation>%1 team ranking</translation>
    </message>
    <message>
      <source>%1 团体名次（%2）</source>
      <translation>%1 team ranking (%2)</translation>
    </message>
    <message>
      <source>最终</source>
      <translation>final</translation>
    </message>
    <message>
      <source>名次</source>
      <translation>Place</translation>
    </message>
    <message>
      <source>队号</source>
      <translation>Team no.</translation>
    </message>
    <message>
      <source>队名</source>
      <translation>Team</translation>
    </message>
    <message>
      <source>场次</source>
      <translation>Matches</translation>
    </message>
    <message>
      <source>胜</source>
      <translation>W</translation>
    </message>
    <message>
      <source>和</source>
      <translation>D</translation>
    </message>
    <message>
      <source>负</source>
      <translation>L</translation>
    </message>
    <message>
      <source>场分</source>
      <translation>Match pts</translation>
    </message>
    <message>
      <source>区分依据</source>
      <translation>Separated by</translation>
    </message>
    <message>
      <source>台次</source>
      <translation>Board</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>局数</source>
      <translation>Games</translation>
    </message>
    <message>
      <source>局分</source>
      <translation>Game pts</translation>
    </message>
    <message>
      <source>得分率</source>
      <translation>Score %</translation>
    </message>
    <message>
      <source>名次依次比较：场分、</source>
      <translation>Ranked by: match points, </translation>
    </message>
    <message>
      <source>比赛尚未结束：名次按已结束的轮次排列。</source>
      <translation>The event is not over: ranked by the rounds finished.</translation>
    </message>
    <message>
      <source>%1 轮后</source>
      <translation>after %1 rounds</translation>
    </message>
    <message>
      <source>台次奖（每台至少 %1 局）</source>
      <translation>Board prizes (at least %1 games on the board)</translation>
    </message>
    <message>
      <source>须加赛决定名次：</source>
      <translation>A play-off must decide: </translation>
    </message>
  </context>
  <context>
    <name>Tiebreak</name>
    <message>
      <source>对手分</source>
      <translation>Opp. score</translation>
    </message>
    <message>
      <source>胜局</source>
      <translation>Wins</translation>
    </message>
    <message>
      <source>犯规</source>
      <translation>Violations</translation>
    </message>
    <message>
      <source>后走局数</source>
      <translation>Black games</translation>
    </message>
    <message>
      <source>后走胜局</source>
      <translation>Black wins</translation>
    </message>
    <message>
      <source>累进分</source>
      <translation>Progressive</translation>
    </message>
    <message>
      <source>前轮成绩</source>
      <translation>Previous rounds</translation>
    </message>
    <message>
      <source>积分</source>
      <translation>Points</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>sequence number</translation>
    </message>
    <message>
      <source>直胜</source>
      <translation>Head-to-head</translation>
    </message>
    <message>
      <source>小分</source>
      <translation>Sonneborn-Berger</translation>
    </message>
    <message>
      <source>抽签</source>
      <translation>Lot</translation>
    </message>
    <message>
      <source>去除前轮得分</source>
      <translation>Score without first rounds</translation>
    </message>
  </context>
  <context>
    <name>TimeControlEdit</name>
    <message>
      <source> 分钟</source>
      <translation> min</translation>
    </message>
    <message>
      <source>每步加 </source>
      <translation>+ </translation>
    </message>
    <message>
      <source> 秒</source>
      <translation> s per move</translation>
    </message>
  </context>
  <context>
    <name>UndoCommands</name>
    <message>
      <source>第 %1 轮第 %2 台：%3</source>
      <translation>Round %1 board %2: %3</translation>
    </message>
    <message>
      <source>编排%1第 %2 轮</source>
      <translation>Pair %1 round %2</translation>
    </message>
    <message>
      <source>撤销%1第 %2 轮编排</source>
      <translation>Unpair %1 round %2</translation>
    </message>
    <message>
      <source>编排%1下一轮</source>
      <translation>Pair the next round of %1</translation>
    </message>
    <message>
      <source>修改规程</source>
      <translation>Change regulation</translation>
    </message>
  </context>
  <context>
    <name>Violations</name>
    <message>
      <source>其他犯规</source>
      <translation>Other violation</translation>
    </message>
    <message>
      <source>拒不录谱</source>
      <translation>Refused to record</translation>
    </message>
    <message>
      <source>和棋录谱不足回合</source>
      <translation>Draw recorded too short</translation>
    </message>
    <message>
      <source>迟到</source>
      <translation>Late</translation>
    </message>
    <message>
      <source>擅自离席</source>
      <translation>Left the table</translation>
    </message>
    <message>
      <source>手机带入赛场</source>
      <translation>Phone in the hall</translation>
    </message>
  </context>
  <context>
    <name>AttendanceDialog</name>
    <message>
      <source>请假</source>
      <translation>Excused</translation>
    </message>
    <message>
      <source>未报名（后报名）</source>
      <translation>Not entered yet (late entry)</translation>
    </message>
    <message>
      <source>取消所选请假</source>
      <translation>Cancel the selected absence</translation>
    </message>
    <message>
      <source>请假（该轮不编排、计 0 分、不作弃权）</source>
      <translation>Excuse (not paired that round, 0 points, not a forfeit)</translation>
    </message>
    <message>
      <source>理由（必填，记入日志）</source>
      <translation>Reason (required, written to the audit log)</translation>
    </message>
    <message>
      <source>准假</source>
      <translation>Excuse</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>轮次</source>
      <translation>Round</translation>
    </message>
    <message>
      <source>理由</source>
      <translation>Reason</translation>
    </message>
    <message>
      <source>恢复参赛（退赛棋手，记入日志）</source>
      <translation>Re-entry (withdrawn players, logged)</translation>
    </message>
    <message>
      <source>下一轮</source>
      <translation>Next round</translation>
    </message>
    <message>
      <source>恢复参赛</source>
      <translation>Re-enter</translation>
    </message>
    <message>
      <source>棋手</source>
      <translation>Player</translation>
    </message>
    <message>
      <source>自第几轮起</source>
      <translation>From round</translation>
    </message>
    <message>
      <source>已恢复参赛</source>
      <translation>The player is back in the event</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>类别</source>
      <translation>Kind</translation>
    </message>
    <message>
      <source>得分</source>
      <translation>Points</translation>
    </message>
    <message>
      <source>请先选择一条请假记录</source>
      <translation>Choose an excused absence first</translation>
    </message>
    <message>
      <source>请假与恢复参赛 — %1</source>
      <translation>Absence and re-entry — %1</translation>
    </message>
    <message>
      <source>%1 号第 %2 轮已准假</source>
      <translation>No. %1 is excused from round %2</translation>
    </message>
    <message>
      <source>已取消 %1 号第 %2 轮请假</source>
      <translation>Absence of no. %1 in round %2 cancelled</translation>
    </message>
  </context>
  <context>
    <name>AvoidanceRulesEdit</name>
    <message>
      <source>添加回避规则</source>
      <translation>Add an avoidance rule</translation>
    </message>
    <message>
      <source>删除回避规则</source>
      <translation>Remove the avoidance rule</translation>
    </message>
    <message>
      <source>绝对回避：这些轮次绝不配对；尽量回避：仅在按积分编排必须时才配对（仅次于积分优先）。</source>
      <translation>Absolute: never paired in those rounds; weak: paired only where the score groups require it (ranked just below the score rule).</translation>
    </message>
    <message>
      <source>回避依据</source>
      <translation>Shared</translation>
    </message>
    <message>
      <source>强度</source>
      <translation>Strength</translation>
    </message>
    <message>
      <source>自第几轮</source>
      <translation>From round</translation>
    </message>
    <message>
      <source>至第几轮（0＝最后）</source>
      <translation>To round (0 = the last)</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>从规程文件新建赛事……</source>
      <translation>New event from a regulation file…</translation>
    </message>
    <message>
      <source>选择规程文件</source>
      <translation>Choose a regulation file</translation>
    </message>
    <message>
      <source>规程文件 (*.toml)</source>
      <translation>Regulation files (*.toml)</translation>
    </message>
  </context>
  <context>
    <name>PaperworkEditor</name>
    <message>
      <source>添加裁判人员</source>
      <translation>Add an official</translation>
    </message>
    <message>
      <source>删除裁判人员</source>
      <translation>Remove the official</translation>
    </message>
    <message>
      <source>如 天水市总工会　天水市体育局</source>
      <translation>e.g. Tianshui Federation of Trade Unions, Tianshui Sports Bureau</translation>
    </message>
    <message>
      <source>保存裁判与证书设置</source>
      <translation>Save officials and certificate</translation>
    </message>
    <message>
      <source>预览证书</source>
      <translation>Preview a certificate</translation>
    </message>
    <message>
      <source>主办单位</source>
      <translation>Organiser</translation>
    </message>
    <message>
      <source>盖章栏</source>
      <translation>Seal line</translation>
    </message>
    <message>
      <source>证书标题</source>
      <translation>Certificate title</translation>
    </message>
    <message>
      <source>证书正文</source>
      <translation>Certificate text</translation>
    </message>
    <message>
      <source>落款</source>
      <translation>Awarded by</translation>
    </message>
    <message>
      <source>日期</source>
      <translation>Date</translation>
    </message>
    <message>
      <source>裁判人员与证书设置已保存</source>
      <translation>Officials and certificate saved</translation>
    </message>
    <message>
      <source>职务</source>
      <translation>Role</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>在名单上签字</source>
      <translation>Signs the lists</translation>
    </message>
    <message>
      <source>裁判人员（签字者的姓名印在名次表、成绩公告等名单下方）</source>
      <translation>Officials (the names of those who sign are printed under the standings, results and other lists)</translation>
    </message>
    <message>
      <source>证书中可用的占位符：%1</source>
      <translation>Placeholders for the certificate: %1</translation>
    </message>
    <message>
      <source>没有改动</source>
      <translation>Nothing changed</translation>
    </message>
    <message>
      <source>裁判长</source>
      <translation>Chief arbiter</translation>
    </message>
    <message>
      <source>未保存：%1</source>
      <translation>Not saved: %1</translation>
    </message>
  </context>
  <context>
    <name>PlayerDialog</name>
    <message>
      <source>如 甘肃天水（同地区回避、本地奖项用）</source>
      <translation>e.g. 甘肃天水 (for region avoidance and local prizes)</translation>
    </message>
    <message>
      <source>地区</source>
      <translation>Region</translation>
    </message>
  </context>
  <context>
    <name>PlayerTableModel</name>
    <message>
      <source>地区</source>
      <translation>Region</translation>
    </message>
  </context>
  <context>
    <name>PlayersView</name>
    <message>
      <source>请假／恢复参赛……</source>
      <translation>Absence / re-entry…</translation>
    </message>
  </context>
  <context>
    <name>PrintMenu</name>
    <message>
      <source>参赛名单（按等级分）</source>
      <translation>Entry list (by rating)</translation>
    </message>
    <message>
      <source>参赛名单（按姓名）</source>
      <translation>Entry list (by name)</translation>
    </message>
    <message>
      <source>报到表（内部）</source>
      <translation>Check-in sheet (internal)</translation>
    </message>
    <message>
      <source>成绩册</source>
      <translation>Results book</translation>
    </message>
    <message>
      <source>获奖证书</source>
      <translation>Prize certificates</translation>
    </message>
  </context>
  <context>
    <name>PrizeTableModel</name>
    <message>
      <source>女子</source>
      <translation>Women</translation>
    </message>
    <message>
      <source>老年</source>
      <translation>Seniors</translation>
    </message>
    <message>
      <source>少年</source>
      <translation>Juniors</translation>
    </message>
    <message>
      <source>本地</source>
      <translation>Local</translation>
    </message>
    <message>
      <source>单位最佳</source>
      <translation>Best of a unit</translation>
    </message>
    <message>
      <source>奖品</source>
      <translation>Prize item</translation>
    </message>
  </context>
  <context>
    <name>SettingsView</name>
    <message>
      <source>后报名者所缺轮次补分</source>
      <translation>Late entries get points for the rounds they missed</translation>
    </message>
    <message>
      <source>每缺一轮补给</source>
      <translation>Points per missed round</translation>
    </message>
    <message>
      <source>同单位／同地区回避</source>
      <translation>Unit / region avoidance</translation>
    </message>
    <message>
      <source>奖项不兼得（就高）</source>
      <translation>One prize per player (the higher one)</translation>
    </message>
    <message>
      <source>代扣个人所得税（%）</source>
      <translation>Income tax withheld (%)</translation>
    </message>
    <message>
      <source>轮空分</source>
      <translation>A bye's points</translation>
    </message>
    <message>
      <source>和棋分</source>
      <translation>A draw's points</translation>
    </message>
    <message>
      <source>同单位</source>
      <translation>Same unit</translation>
    </message>
    <message>
      <source>同地区</source>
      <translation>Same region</translation>
    </message>
    <message>
      <source>绝对回避</source>
      <translation>Absolute</translation>
    </message>
    <message>
      <source>尽量回避</source>
      <translation>Weak</translation>
    </message>
    <message>
      <source>全组</source>
      <translation>Whole group</translation>
    </message>
    <message>
      <source>女子</source>
      <translation>Women</translation>
    </message>
    <message>
      <source>老年（年龄≥）</source>
      <translation>Seniors (age ≥)</translation>
    </message>
    <message>
      <source>少年（年龄≤）</source>
      <translation>Juniors (age ≤)</translation>
    </message>
    <message>
      <source>本地（地区）</source>
      <translation>Local (region)</translation>
    </message>
    <message>
      <source>单位最佳（单位）</source>
      <translation>Best of a unit (unit)</translation>
    </message>
    <message>
      <source>裁判与证书</source>
      <translation>Officials &amp; certificate</translation>
    </message>
    <message>
      <source>导入规程文件……</source>
      <translation>Import a regulation file…</translation>
    </message>
    <message>
      <source>导出规程文件……</source>
      <translation>Export the regulation file…</translation>
    </message>
    <message>
      <source>限定：女子、老年（条件填年龄下限）、少年（年龄上限）、本地（地区，或身份证号前几位如 6205）、单位最佳（单位名）。不兼得时，一名棋手只领其所获最高的一项，其余名额依名次顺延。</source>
      <translation>For: women, seniors (condition: the lowest age), juniors (the highest age), local (regions, or the first digits of a resident ID such as 6205), best of a unit (unit names). With one prize per player a player takes only the highest prize won; the others pass down the ranking.</translation>
    </message>
    <message>
      <source>限定</source>
      <translation>For</translation>
    </message>
    <message>
      <source>条件（年龄／地区／单位）</source>
      <translation>Condition (age / regions / units)</translation>
    </message>
    <message>
      <source>奖品（逗号分隔）</source>
      <translation>Prize items (comma-separated)</translation>
    </message>
    <message>
      <source>未导出：%1</source>
      <translation>Not exported: %1</translation>
    </message>
  </context>
  <context>
    <name>UndoCommands</name>
    <message>
      <source>恢复参赛</source>
      <translation>Re-enter</translation>
    </message>
    <message>
      <source>%1 号第 %2 轮请假</source>
      <translation>No. %1 excused from round %2</translation>
    </message>
    <message>
      <source>修改裁判人员与证书</source>
      <translation>Change officials and certificate</translation>
    </message>
    <message>
      <source>导入规程文件</source>
      <translation>Import a regulation file</translation>
    </message>
  </context>
  <context>
    <name>AvoidancesDialog</name>
    <message>
      <source>绝对回避</source>
      <translation>Absolute</translation>
    </message>
    <message>
      <source>尽量回避</source>
      <translation>Weak</translation>
    </message>
    <message>
      <source>删除所选回避</source>
      <translation>Remove the selected avoidance</translation>
    </message>
    <message>
      <source>最后一轮</source>
      <translation>The last round</translation>
    </message>
    <message>
      <source>如 父子、夫妻（记入日志）</source>
      <translation>e.g. father and son, husband and wife (logged)</translation>
    </message>
    <message>
      <source>添加回避</source>
      <translation>Add the avoidance</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>与序号</source>
      <translation>With no.</translation>
    </message>
    <message>
      <source>强度</source>
      <translation>Strength</translation>
    </message>
    <message>
      <source>自第几轮</source>
      <translation>From round</translation>
    </message>
    <message>
      <source>至第几轮</source>
      <translation>To round</translation>
    </message>
    <message>
      <source>理由</source>
      <translation>Reason</translation>
    </message>
    <message>
      <source>棋手</source>
      <translation>Player</translation>
    </message>
    <message>
      <source>轮次</source>
      <translation>Round</translation>
    </message>
    <message>
      <source>请先选择一条回避</source>
      <translation>Choose an avoidance first</translation>
    </message>
    <message>
      <source>回避设置 — %1</source>
      <translation>Avoidances — %1</translation>
    </message>
    <message>
      <source>规程中的回避：%1</source>
      <translation>Avoidances in the regulation: %1</translation>
    </message>
    <message>
      <source>无（在 设置 → 编排 中设定）</source>
      <translation>none (set in Settings → Pairing)</translation>
    </message>
    <message>
      <source>%1 号与 %2 号已设回避</source>
      <translation>No. %1 and no. %2 now avoid each other</translation>
    </message>
    <message>
      <source>已删除 %1 号与 %2 号的回避</source>
      <translation>The avoidance of no. %1 and no. %2 is removed</translation>
    </message>
  </context>
  <context>
    <name>PlayersView</name>
    <message>
      <source>回避设置……</source>
      <translation>Avoidances…</translation>
    </message>
  </context>
  <context>
    <name>PrintMenu</name>
    <message>
      <source>回避名单（内部）</source>
      <translation>Avoidance list (internal)</translation>
    </message>
  </context>
  <context>
    <name>UndoCommands</name>
    <message>
      <source>%1 号与 %2 号回避</source>
      <translation>No. %1 and no. %2 avoid each other</translation>
    </message>
  </context>
  <context>
    <name>TeamMatchesView</name>
    <message>
      <source>编排下一轮</source>
      <translation>Pair the next round</translation>
    </message>
    <message>
      <source>生成对阵单</source>
      <translation>Set the boards</translation>
    </message>
    <message>
      <source>结束本轮</source>
      <translation>Close the round</translation>
    </message>
    <message>
      <source>队号 一台 二台 ……，如 3 301 302 304 305（- 为空台），回车交排阵</source>
      <translation>team board1 board2 …, e.g. 3 301 302 304 305 (- for an empty board); Enter hands it in</translation>
    </message>
    <message>
      <source>场次 台次 结果，如 2 3 1；加赛：2 1 加 =；回车录入</source>
      <translation>match board result, e.g. 2 3 1; a tie-break: 2 1 t =; Enter enters it</translation>
    </message>
    <message>
      <source>排阵：</source>
      <translation>Line-up:</translation>
    </message>
    <message>
      <source>成绩：</source>
      <translation>Result:</translation>
    </message>
    <message>
      <source>结果键：1 红胜　0 黑胜　= 或 5 和　+ 黑方弃权　- 红方弃权　* 双方弃权（按红方记）</source>
      <translation>Keys: 1 Red wins  0 Black wins  = or 5 draw  + Black forfeits  - Red forfeits  * both forfeit (Red's view)</translation>
    </message>
    <message>
      <source>轮次：</source>
      <translation>Round:</translation>
    </message>
    <message>
      <source>本组别不是团体赛（规程中没有 team_event）。</source>
      <translation>This group is not a team competition (its format has no team_event).</translation>
    </message>
    <message>
      <source>轮空</source>
      <translation>Bye</translation>
    </message>
    <message>
      <source>对阵单已生成</source>
      <translation>Boards set</translation>
    </message>
    <message>
      <source>排阵已收：%1</source>
      <translation>Line-up received: %1</translation>
    </message>
    <message>
      <source>不到场</source>
      <translation>did not appear</translation>
    </message>
    <message>
      <source>到场</source>
      <translation>appeared</translation>
    </message>
    <message>
      <source>%1 团体赛</source>
      <translation>%1 team matches</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>%1 团体赛：尚未编排</source>
      <translation>%1 team matches: not paired yet</translation>
    </message>
    <message>
      <source>，%1 轮空</source>
      <translation>, %1 has the bye</translation>
    </message>
    <message>
      <source>第 %1 轮已结束</source>
      <translation>Round %1 closed</translation>
    </message>
    <message>
      <source>第 %1 场%2%3</source>
      <translation>Match %1: %2 %3</translation>
    </message>
    <message>
      <source>第 %1 场</source>
      <translation>Match %1</translation>
    </message>
    <message>
      <source>%1不到场，各台按弃权计</source>
      <translation>%1 did not appear: every board forfeited</translation>
    </message>
    <message>
      <source>已交</source>
      <translation>in</translation>
    </message>
    <message>
      <source>未交</source>
      <translation>missing</translation>
    </message>
    <message>
      <source>进行中</source>
      <translation>in play</translation>
    </message>
    <message>
      <source>空台</source>
      <translation>empty</translation>
    </message>
    <message>
      <source>第 %1 场第 %2 台加赛 %3</source>
      <translation>Match %1 board %2 tie-break: %3</translation>
    </message>
    <message>
      <source>第 %1 场第 %2 台 %3</source>
      <translation>Match %1 board %2: %3</translation>
    </message>
    <message>
      <source>　待加赛第 %1 局 %2</source>
      <translation>  tie-break game %1 (%2) due</translation>
    </message>
    <message>
      <source>第 %1 轮已编排：%2 场%3</source>
      <translation>Round %1 paired: %2 matches%3</translation>
    </message>
    <message>
      <source>排阵：主队%1，客队%2</source>
      <translation>Line-ups: home %1, away %2</translation>
    </message>
    <message>
      <source>%1 第 %2 轮（每场 %3 台，%4）</source>
      <translation>%1 round %2 (%3 boards a match; %4)</translation>
    </message>
    <message>
      <source>加赛 %1 %2</source>
      <translation>Tie-break %1 %2</translation>
    </message>
  </context>
  <context>
    <name>StagesDialog</name>
    <message>
      <source>（选择现成的赛制）</source>
      <translation>(choose a ready-made format)</translation>
    </message>
    <message>
      <source>套用</source>
      <translation>Apply</translation>
    </message>
    <message>
      <source>每个阶段一个 [[stages]]：kind 为 swiss（积分编排）、round_robin（循环赛）或 knockout（淘汰赛）；entrants 为 all、top、rest、pool_top，count 为人数；详见 docs/formats.md。</source>
      <translation>One [[stages]] per stage: kind is swiss, round_robin or knockout; entrants is all, top, rest or pool_top, count the number of players; see docs/formats.md.</translation>
    </message>
    <message>
      <source>现成赛制：</source>
      <translation>Ready-made format:</translation>
    </message>
    <message>
      <source>%1 的赛制</source>
      <translation>Format of %1</translation>
    </message>
    <message>
      <source>逐项设置(&amp;F)</source>
      <translation>&amp;Fields</translation>
    </message>
    <message>
      <source>规程文字（高级）(&amp;T)</source>
      <translation>Regulation &amp;text (advanced)</translation>
    </message>
  </context>
  <!-- desk: keyboard entry and the window's questions -->
  <context>
    <name>GameKind</name>
    <message>
      <source>慢棋</source>
      <translation>slow</translation>
    </message>
    <message>
      <source>快棋</source>
      <translation>rapid</translation>
    </message>
    <message>
      <source>附加赛</source>
      <translation>deciding</translation>
    </message>
    <message>
      <source>%1 第 %2 局 %3</source>
      <translation>%1 game %2 %3</translation>
    </message>
  </context>
  <context>
    <name>HallDialog</name>
    <message>
      <source>副裁判：</source>
      <translation>Deputy:</translation>
    </message>
    <message>
      <source>台次：</source>
      <translation>Boards:</translation>
    </message>
  </context>
  <context>
    <name>ImportPreviewDialog</name>
    <message>
      <source>同名同出生日期</source>
      <translation>Same name, same birth date</translation>
    </message>
    <message>
      <source>仍然导入吗？（回车＝否）</source>
      <translation>Import them anyway? (Enter = no)</translation>
    </message>
    <message>
      <source>仍然导入(&amp;Y)</source>
      <translation>&amp;Yes, import</translation>
    </message>
    <message>
      <source>未导入：请核对同名同出生日期的行</source>
      <translation>Nothing imported: check the rows with the same name and birth date</translation>
    </message>
    <message>
      <source>%1 行同名同出生日期，请核对（⚠）。</source>
      <translation> %1 rows share a name and a birth date with another: check them (⚠).</translation>
    </message>
    <message>
      <source>以下棋手与他人同名同出生日期，可能是重复报名：</source>
      <translation>These players have the same name and birth date as another, perhaps entered twice:</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>待录入 %1 台，积分编排部分未编排</source>
      <translation>results pending: %1, Swiss part not paired</translation>
    </message>
    <message>
      <source>积分编排部分未编排</source>
      <translation>Swiss part not paired</translation>
    </message>
  </context>
  <context>
    <name>OpenFile</name>
    <message>
      <source>锁文件内容无法读取</source>
      <translation>the lock file cannot be read</translation>
    </message>
    <message>
      <source>接管该文件并继续编辑吗？（接管会记入审计日志）</source>
      <translation>Take the file over and go on editing? (the take-over is written to the audit log)</translation>
    </message>
    <message>
      <source>%1 上次未正常关闭（%2，该程序已不在运行）。</source>
      <translation>%1 was not closed properly (%2, no longer running).</translation>
    </message>
  </context>
  <context>
    <name>PairingTableModel</name>
    <message>
      <source>对局</source>
      <translation>Game</translation>
    </message>
    <message>
      <source>轮空</source>
      <translation>bye</translation>
    </message>
    <message>
      <source>请假</source>
      <translation>excused</translation>
    </message>
  </context>
  <context>
    <name>PendingPanel</name>
    <message>
      <source>确认副裁判报送的成绩</source>
      <translation>Confirm a deputy's result</translation>
    </message>
    <message>
      <source>已确认：%1：%2（%3 报送）</source>
      <translation>Confirmed: %1: %2 (sent by %3)</translation>
    </message>
    <message>
      <source>已确认：%1：%2 → %3（%4 报送）</source>
      <translation>Confirmed: %1: %2 → %3 (sent by %4)</translation>
    </message>
    <message>
      <source>确认改动(&amp;Y)</source>
      <translation>&amp;Yes, change it</translation>
    </message>
    <message>
      <source>未确认：%1（%2 报送 %3）</source>
      <translation>Not confirmed: %1 (%2 sent %3)</translation>
    </message>
    <message>
      <source>%1：副裁判报送的结果不一致。确认 %2 报送的 %3 吗？（同台其他报送将作废）</source>
      <translation>%1: the deputies' results differ. Confirm %3 sent by %2? (the board's other entries are set aside)</translation>
    </message>
    <message>
      <source>%1 已录入 %2。改为 %3 报送的 %4 吗？</source>
      <translation>%1 has %2. Change it to %4 sent by %3?</translation>
    </message>
    <message>
      <source>%1 第 %2 轮 第 %3 台 %4 — %5</source>
      <translation>%1 round %2 board %3 %4 — %5</translation>
    </message>
  </context>
  <context>
    <name>Questions</name>
    <message>
      <source>否(&amp;N)</source>
      <translation>&amp;No</translation>
    </message>
    <message>
      <source>是(&amp;Y)</source>
      <translation>&amp;Yes</translation>
    </message>
  </context>
  <context>
    <name>ResultEntry</name>
    <message>
      <source>逐台：只按结果键</source>
      <translation>board by board: result keys</translation>
    </message>
    <message>
      <source>按 Y 改动；回车、N 或 Esc 不改</source>
      <translation>Y changes it; Enter, N or Esc keep it</translation>
    </message>
    <message>
      <source>逐台录入（F4 或 Esc 退出）：</source>
      <translation>Board by board (F4 or Esc leaves): </translation>
    </message>
    <message>
      <source>%1：请输入结果</source>
      <translation>%1: type the result</translation>
    </message>
  </context>
  <context>
    <name>RoundsView</name>
    <message>
      <source>逐台录入 F4</source>
      <translation>Board by board F4</translation>
    </message>
    <message>
      <source>按结果键直接录入光标所在台，然后移到下一台（不输台次）；F4 或 Esc 退出</source>
      <translation>A result key enters the highlighted board at once and moves on (no board numbers); F4 or Esc leaves</translation>
    </message>
    <message>
      <source>1 红胜　0 黑胜　= 或 5 和　+ 黑弃权　- 红弃权　* 双弃权　↑↓ 换台　F4 逐台录入　Ctrl+Z 撤销</source>
      <translation>1 Red wins   0 Black wins   = or 5 draw   + Black forfeits   - Red forfeits   * both forfeit   ↑↓ board   F4 board by board   Ctrl+Z undo</translation>
    </message>
    <message>
      <source>%1 第 %2 轮 第 %3 台 %4 — %5</source>
      <translation>%1 round %2 board %3 %4 — %5</translation>
    </message>
    <message>
      <source>记为拒不录谱并结束本轮吗？（回车＝否）</source>
      <translation>Record the refusals and close the round? (Enter = no)</translation>
    </message>
    <message>
      <source>记犯规并结束(&amp;Y)</source>
      <translation>&amp;Yes, record and close</translation>
    </message>
    <message>
      <source>已录入：%1：%2</source>
      <translation>Entered: %1: %2</translation>
    </message>
    <message>
      <source>。本台接着下：%1</source>
      <translation>. The board plays on: %1</translation>
    </message>
    <message>
      <source>清除 %1 的成绩 %2？</source>
      <translation>Clear the result %2 of %1?</translation>
    </message>
    <message>
      <source>%1 已录入 %2，改为 %3？</source>
      <translation>%1 has %2: change it to %3?</translation>
    </message>
    <message>
      <source>已清除：%1：%2</source>
      <translation>Cleared: %1: %2</translation>
    </message>
    <message>
      <source>已改动：%1：%2 → %3</source>
      <translation>Changed: %1: %2 → %3</translation>
    </message>
    <message>
      <source>（现为 %1）</source>
      <translation> (now %1)</translation>
    </message>
    <message>
      <source>未录入 %1 台；积分编排部分未编排</source>
      <translation>%1 boards pending; Swiss part not paired</translation>
    </message>
    <message>
      <source>淘汰赛成绩已录入；积分编排部分未编排</source>
      <translation>knockout results in; Swiss part not paired</translation>
    </message>
  </context>
  <context>
    <name>UndoCommands</name>
    <message>
      <source>已重做：%1</source>
      <translation>Redone: %1</translation>
    </message>
    <message>
      <source>已撤销：%1</source>
      <translation>Undone: %1</translation>
    </message>
    <message>
      <source>%4 第 %1 轮第 %2 台：%3</source>
      <translation>%4 round %1 board %2: %3</translation>
    </message>
  </context>
  <!-- /desk -->
  <context>
    <name>OpenFile</name>
    <message>
      <source>接管：serve 完成正在进行的操作后停止，本窗口打开文件，并在同一地址继续提供赛场网络。
只读打开：只能查看和打印，serve 照常运行。
取消：什么也不改变。</source>
      <translation>Take over: serve finishes what it is doing and stops; this window opens the file and serves the hall network at the same address.
Read-only: view and print only; serve goes on.
Cancel: nothing changes.</translation>
    </message>
    <message>
      <source>接管(&amp;T)</source>
      <translation>&amp;Take over</translation>
    </message>
    <message>
      <source>只读打开(&amp;R)</source>
      <translation>Open &amp;read-only</translation>
    </message>
    <message>
      <source>取消</source>
      <translation>Cancel</translation>
    </message>
    <message>
      <source>赛场网络服务器正在使用此文件</source>
      <translation>The hall server has this file open</translation>
    </message>
    <message>
      <source>无法接管</source>
      <translation>Cannot take over</translation>
    </message>
    <message>
      <source>xqarbiter serve（进程 %1）没有交出文件，什么也没有改变。%2</source>
      <translation>xqarbiter serve (process %1) did not hand the file over; nothing was changed. %2</translation>
    </message>
    <message>
      <source>xqarbiter serve（进程 %1）同意交出文件，但 %2 秒内没有停止；请在它的控制台按 Ctrl+C。</source>
      <translation>xqarbiter serve (process %1) agreed to hand the file over but did not stop within %2 s; press Ctrl+C in its console.</translation>
    </message>
    <message>
      <source>%1 正由赛场网络服务器 xqarbiter serve（进程 %2，地址 %3）打开，手机和副裁判正通过它查看和录入。</source>
      <translation>%1 is open in the hall server xqarbiter serve (process %2, address %3); phones and deputies are using it.</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>已从 xqarbiter serve 接管；赛场网络在本窗口继续：%1</source>
      <translation>Taken over from xqarbiter serve; the hall network goes on in this window: %1</translation>
    </message>
    <message>
      <source>文件已在本窗口打开，但赛场网络无法在原地址继续：%1
请在 赛场网络 菜单中重新启动。</source>
      <translation>The file is open in this window, but the hall network cannot go on at its address: %1
Start it again from the Hall network menu.</translation>
    </message>
  </context>
  <!-- progress of a long export -->
  <context>
    <name>Progress</name>
    <message>
      <source>（%1 秒）</source>
      <translation> (%1 s)</translation>
    </message>
  </context>
  <!-- team rosters in the window and the line-up deadline -->
  <context>
    <name>UndoCommands</name>
    <message>
      <source>队名 %1 → %2</source>
      <translation>team name %1 → %2</translation>
    </message>
    <message>
      <source>%1 队号 %2</source>
      <translation>%1: team number %2</translation>
    </message>
    <message>
      <source>%1：%2 %3</source>
      <translation>%1: %2 %3</translation>
    </message>
  </context>
  <context>
    <name>LateLineupDialog</name>
    <message>
      <source>排阵迟交</source>
      <translation>Late line-up</translation>
    </message>
    <message>
      <source>放行(&amp;Y)</source>
      <translation>Accept(&amp;Y)</translation>
    </message>
    <message>
      <source>放行理由（必填，记入审计日志）</source>
      <translation>Reason for accepting (required, written to the audit log)</translation>
    </message>
    <message>
      <source>不接收</source>
      <translation>Do not accept</translation>
    </message>
  </context>
  <context>
    <name>TeamRosterDialog</name>
    <message>
      <source>移出本队</source>
      <translation>taken out of the team</translation>
    </message>
    <message>
      <source>未抽</source>
      <translation>not drawn</translation>
    </message>
    <message>
      <source>队名：</source>
      <translation>Team name:</translation>
    </message>
    <message>
      <source>队号：</source>
      <translation>Team number:</translation>
    </message>
    <message>
      <source>队长：</source>
      <translation>Captain:</translation>
    </message>
    <message>
      <source>领队：</source>
      <translation>Leader:</translation>
    </message>
    <message>
      <source>未分队棋手的姓名，回车加入本队</source>
      <translation>name of a player in no team, Enter adds him to this team</translation>
    </message>
    <message>
      <source>替补</source>
      <translation>Reserve</translation>
    </message>
    <message>
      <source>Ctrl+↑/↓ 调整报名顺序　Ctrl+R 替补/主力　Delete 移出本队　Insert 增加队员　Ctrl+Z 撤销　Ctrl+Y 重做　Esc 关闭</source>
      <translation>Ctrl+↑/↓ registered order   Ctrl+R reserve/main   Delete take out   Insert add a player   Ctrl+Z undo   Ctrl+Y redo   Esc close</translation>
    </message>
    <message>
      <source>关闭</source>
      <translation>Close</translation>
    </message>
    <message>
      <source>：人数不足，抽队号时将被拒绝</source>
      <translation>: too few, the team-number draw will refuse it</translation>
    </message>
    <message>
      <source>上移</source>
      <translation>moved up</translation>
    </message>
    <message>
      <source>下移</source>
      <translation>moved down</translation>
    </message>
    <message>
      <source>改为主力</source>
      <translation>made a main player</translation>
    </message>
    <message>
      <source>标为替补</source>
      <translation>made a reserve</translation>
    </message>
    <message>
      <source>加为替补</source>
      <translation>added as a reserve</translation>
    </message>
    <message>
      <source>加入本队</source>
      <translation>added</translation>
    </message>
    <message>
      <source>增加队员：</source>
      <translation>Add a player:</translation>
    </message>
    <message>
      <source>队长</source>
      <translation>captain</translation>
    </message>
    <message>
      <source>领队</source>
      <translation>leader</translation>
    </message>
    <message>
      <source>队伍名单 — %1</source>
      <translation>Team rosters — %1</translation>
    </message>
    <message>
      <source>退赛</source>
      <translation>withdrawn</translation>
    </message>
    <message>
      <source>取消资格</source>
      <translation>disqualified</translation>
    </message>
    <message>
      <source>%1（%2 人）</source>
      <translation>%1 (%2 players)</translation>
    </message>
    <message>
      <source>%1 人（规程每队 %2–%3 人）</source>
      <translation>%1 players (the regulation: %2–%3 a team)</translation>
    </message>
    <message>
      <source>顺序</source>
      <translation>Order</translation>
    </message>
    <message>
      <source>序号</source>
      <translation>No.</translation>
    </message>
    <message>
      <source>姓名</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>状态</source>
      <translation>Status</translation>
    </message>
  </context>
  <context>
    <name>TeamMatchesView</name>
    <message>
      <source>队伍名单(F6)…</source>
      <translation>Team rosters (F6)…</translation>
    </message>
    <message>
      <source>（迟交，经裁判长放行：%1）</source>
      <translation> (late, accepted by the chief arbiter: %1)</translation>
    </message>
  </context>
  <context>
    <name>StageForm</name>
    <message>
      <source>添加阶段(&amp;A)</source>
      <translation>&amp;Add stage</translation>
    </message>
    <message>
      <source>删除阶段(&amp;D)</source>
      <translation>&amp;Delete stage</translation>
    </message>
    <message>
      <source>上移(&amp;U)</source>
      <translation>Move &amp;up</translation>
    </message>
    <message>
      <source>下移(&amp;J)</source>
      <translation>Move down (&amp;J)</translation>
    </message>
    <message>
      <source>此阶段已开始，不能修改。</source>
      <translation>This stage has begun and cannot be changed.</translation>
    </message>
    <message>
      <source>不填则按赛制自动命名</source>
      <translation>Leave empty for the system's own name</translation>
    </message>
    <message>
      <source>—</source>
      <translation>—</translation>
    </message>
    <message>
      <source>与前一阶段同时进行（如淘汰赛期间其余棋手继续积分编排）</source>
      <translation>Played alongside the stage before (e.g. the rest play on in the Swiss during the knockout)</translation>
    </message>
    <message>
      <source>不改</source>
      <translation>Never</translation>
    </message>
    <message>
      <source>第一循环最后两轮互换（国际棋联 C.05 建议，避免连续三局同色）</source>
      <translation>Swap the last two rounds of the first cycle (FIDE C.05: no one has a colour three games running)</translation>
    </message>
    <message>
      <source>有轮空时第一轮称资格赛</source>
      <translation>With byes, the first round is a qualifier</translation>
    </message>
    <message>
      <source>总决赛败者组胜者胜则加赛一场</source>
      <translation>A second grand final if the losers' bracket winner wins the first</translation>
    </message>
    <message>
      <source>赛制(&amp;K)</source>
      <translation>Sy&amp;stem</translation>
    </message>
    <message>
      <source>名称</source>
      <translation>Name</translation>
    </message>
    <message>
      <source>参加者</source>
      <translation>Entrants</translation>
    </message>
    <message>
      <source>人数 N</source>
      <translation>Number N</translation>
    </message>
    <message>
      <source>轮数(&amp;R)</source>
      <translation>&amp;Rounds</translation>
    </message>
    <message>
      <source>人数不多于此时改为单循环</source>
      <translation>Single round robin up to this many players</translation>
    </message>
    <message>
      <source>循环次数(&amp;C)</source>
      <translation>&amp;Cycles</translation>
    </message>
    <message>
      <source>小组数</source>
      <translation>Pools</translation>
    </message>
    <message>
      <source>分组办法</source>
      <translation>Pool draw</translation>
    </message>
    <message>
      <source>编号/种子</source>
      <translation>Numbers / seeds</translation>
    </message>
    <message>
      <source>退赛处理</source>
      <translation>Withdrawals</translation>
    </message>
    <message>
      <source>淘汰办法</source>
      <translation>Elimination</translation>
    </message>
    <message>
      <source>名次办法</source>
      <translation>Places</translation>
    </message>
    <message>
      <source>（已开始）</source>
      <translation> (begun)</translation>
    </message>
    <message>
      <source>按规程 [knockout] 的名次办法</source>
      <translation>As the regulation's [knockout] placement</translation>
    </message>
  </context>
  <context>
    <name>LadderEditor</name>
    <message>
      <source>每场比赛的赛制（局数、先后手、用时、决胜局）</source>
      <translation>How each match is played (games, colours, time, deciding game)</translation>
    </message>
    <message>
      <source>添加比赛赛制(&amp;M)</source>
      <translation>Add a &amp;match format</translation>
    </message>
    <message>
      <source>删除此赛制</source>
      <translation>Delete this format</translation>
    </message>
    <message>
      <source>添加一级(&amp;S)</source>
      <translation>Add a &amp;step</translation>
    </message>
    <message>
      <source>删除最后一级</source>
      <translation>Delete the last step</translation>
    </message>
    <message>
      <source>未设：按规程 [knockout] 的用时（慢棋，平则快棋换先，再平则决胜局）</source>
      <translation>None: the regulation's [knockout] time controls (slow, then rapid with colours swapped, then a deciding game)</translation>
    </message>
    <message>
      <source>适用于</source>
      <translation>For</translation>
    </message>
    <message>
      <source>最后一局和棋</source>
      <translation>A drawn last game</translation>
    </message>
    <message>
      <source>包干</source>
      <translation>Sudden death</translation>
    </message>
    <message>
      <source>同红方</source>
      <translation>As Red</translation>
    </message>
  </context>
  <context>
    <name>SettingsView</name>
    <message>
      <source>参赛条件……</source>
      <translation>Conditions of entry…</translation>
    </message>
    <message>
      <source>出生日期、年龄、性别、等级分、排名、地区、单位</source>
      <translation>Birth dates, age, sex, rating, rank, region, unit</translation>
    </message>
    <message>
      <source>%1：已报名的 %2 名棋手不符合新的参赛条件（未删除）；保存后生效</source>
      <translation>%1: %2 entered players do not meet the new conditions of entry (not removed); they apply once saved</translation>
    </message>
  </context>
  <context>
    <name>EligibilityDialog</name>
    <message>
      <source>%1 的参赛条件</source>
      <translation>Conditions of entry of %1</translation>
    </message>
    <message>
      <source>出生日期不早于(&amp;B)</source>
      <translation>&amp;Born on or after</translation>
    </message>
    <message>
      <source>出生日期不晚于(&amp;E)</source>
      <translation>Born on or b&amp;efore</translation>
    </message>
    <message>
      <source>最小年龄(&amp;A)</source>
      <translation>Minimum &amp;age</translation>
    </message>
    <message>
      <source>最大年龄(&amp;G)</source>
      <translation>Maximum a&amp;ge</translation>
    </message>
    <message>
      <source>年龄计算日期(&amp;D)</source>
      <translation>Age on &amp;date</translation>
    </message>
    <message>
      <source>等级分不低于(&amp;R)</source>
      <translation>Minimum &amp;rating</translation>
    </message>
    <message>
      <source>等级分不高于(&amp;H)</source>
      <translation>Maximum rating (&amp;H)</translation>
    </message>
    <message>
      <source>限等级分排名前 N 名(&amp;K)</source>
      <translation>Only the first N of the rating list (ran&amp;k)</translation>
    </message>
    <message>
      <source>自等级分排名第 N 名起(&amp;N)</source>
      <translation>From place &amp;N of the rating list on</translation>
    </message>
    <message>
      <source>限地区(&amp;L)</source>
      <translation>Regions (&amp;L)</translation>
    </message>
    <message>
      <source>限单位(&amp;U)</source>
      <translation>&amp;Units</translation>
    </message>
    <message>
      <source>不限</source>
      <translation>Any</translation>
    </message>
    <message>
      <source>男</source>
      <translation>Male</translation>
    </message>
    <message>
      <source>女</source>
      <translation>Female</translation>
    </message>
    <message>
      <source>性别(&amp;S)</source>
      <translation>&amp;Sex</translation>
    </message>
    <message>
      <source>YYYY-MM-DD，空为不限</source>
      <translation>YYYY-MM-DD; empty: no condition</translation>
    </message>
    <message>
      <source>空为第一天比赛日</source>
      <translation>Empty: the first day of play</translation>
    </message>
    <message>
      <source>0 或空为不限</source>
      <translation>0 or empty: no condition</translation>
    </message>
    <message>
      <source>地区名称或身份证号前几位，以、或逗号分隔</source>
      <translation>Region names or leading digits of an ID number, separated by 、 or commas</translation>
    </message>
    <message>
      <source>单位或代表队，以、或逗号分隔</source>
      <translation>Units or teams, separated by 、 or commas</translation>
    </message>
    <message>
      <source>参赛条件：%1</source>
      <translation>Conditions: %1</translation>
    </message>
    <message>
      <source>注意：已报名的 %1 名棋手不符合这些条件（不会被删除，请核实）。</source>
      <translation>Note: %1 entered players do not meet these conditions (they are not removed; please check).</translation>
    </message>
  </context>
  <context>
    <name>ChainEditor</name>
    <message>
      <source>名次区分办法（积分相同时依次比较）</source>
      <translation>Tiebreaks (compared in order when the points are level)</translation>
    </message>
    <message>
      <source>加入(&amp;I)</source>
      <translation>&amp;Insert</translation>
    </message>
    <message>
      <source>移除(&amp;X)</source>
      <translation>Remove (&amp;X)</translation>
    </message>
    <message>
      <source>前移(&amp;P)</source>
      <translation>U&amp;p</translation>
    </message>
    <message>
      <source>后移(&amp;N)</source>
      <translation>Dow&amp;n</translation>
    </message>
    <message>
      <source>恢复默认(&amp;E)</source>
      <translation>D&amp;efault</translation>
    </message>
    <message>
      <source>列表中：Delete 移除，Ctrl+↑/↓ 调整顺序，Insert 选择要加入的办法。</source>
      <translation> In the list: Delete removes, Ctrl+↑/↓ reorders, Insert goes to the criteria that may be added.</translation>
    </message>
    <message>
      <source>未单独设置：按此赛制的默认办法。</source>
      <translation>Not set for this stage: the system's default chain.</translation>
    </message>
    <message>
      <source>本阶段自定的办法。</source>
      <translation>This stage's own chain.</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>队伍名单……</source>
      <translation>Team rosters…</translation>
    </message>
  </context>
  <context>
    <name>PlayersView</name>
    <message>
      <source>队伍名单(F6)……</source>
      <translation>Team rosters (F6)…</translation>
    </message>
  </context>
  <context>
    <name>SettingsView</name>
    <message>
      <source> 分钟</source>
      <translation> min</translation>
    </message>
    <message>
      <source>不设截止</source>
      <translation>No deadline</translation>
    </message>
    <message>
      <source>各队须于每轮开赛前多少分钟交排阵（按赛程的开赛时间；0 为不设截止，最多 1440 分钟）</source>
      <translation>How many minutes before each round's scheduled start the teams must hand in their line-ups (0: no deadline; at most 1440)</translation>
    </message>
    <message>
      <source>排阵截止（赛前）</source>
      <translation>Line-up deadline (before the round)</translation>
    </message>
    <message>
      <source>最后两轮互换</source>
      <translation>Swap last two rounds</translation>
    </message>
    <message>
      <source>团体双循环：第一循环最后两轮互换顺序，避免连续三场主场（或客场）</source>
      <translation>Team double round robin: the first cycle's last two rounds are played in the other order, so that no team is at home (or away) three matches running</translation>
    </message>
    <message>
      <source>只用于团体双循环</source>
      <translation>Only for a team double round robin</translation>
    </message>
    <message>
      <source>已开赛：对局秩序已定，不能再修改</source>
      <translation>Play has begun: the order of play is fixed and cannot change</translation>
    </message>
    <message>
      <source>第一循环最后两轮互换顺序（FIDE 推荐），避免任何队连续三场主场（或客场）；开赛后不能修改</source>
      <translation>Play the first cycle's last two rounds in the other order (as FIDE recommends), so that no team is at home (or away) three matches running; cannot change once play has begun</translation>
    </message>
    <message>
      <source>只用于团体赛</source>
      <translation>For team competitions only</translation>
    </message>
  </context>
  <context>
    <name>TeamMatchesView</name>
    <message>
      <source>第 %1 轮 %2 队排阵</source>
      <translation>Round %1: line-up of team %2</translation>
    </message>
  </context>
</TS>
