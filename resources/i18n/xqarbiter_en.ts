<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_GB" sourcelanguage="zh_CN">
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
    <name>ImportPreviewDialog</name>
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
      <source>退出</source>
      <translation>Quit</translation>
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
      <source>规程模板：</source>
      <translation>Regulation preset:</translation>
    </message>
    <message>
      <source>另存副本</source>
      <translation>Save a copy</translation>
    </message>
    <message>
      <source>从备份恢复</source>
      <translation>Restore from backup</translation>
    </message>
    <message>
      <source>备份 (*)</source>
      <translation>Backups (*)</translation>
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
      <source>尚未编排</source>
      <translation>Not paired yet</translation>
    </message>
    <message>
      <source>成绩已齐</source>
      <translation>all results in</translation>
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
      <source>第 %1 轮：%2</source>
      <translation>Round %1: %2</translation>
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
    <name>PendingView</name>
    <message>
      <source>本功能尚未完成</source>
      <translation>This view is not finished yet</translation>
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
      <source>抽签定序号……</source>
      <translation>Draw numbers…</translation>
    </message>
    <message>
      <source>导入报名表</source>
      <translation>Import registration form</translation>
    </message>
    <message>
      <source>Excel 文件 (*.xlsx)</source>
      <translation>Excel files (*.xlsx)</translation>
    </message>
    <message>
      <source>无法导入</source>
      <translation>Cannot import</translation>
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
      <source>显示 %1 / %2 人</source>
      <translation>Showing %1 of %2</translation>
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
      <source>打开棋谱</source>
      <translation>Open a game record</translation>
    </message>
    <message>
      <source>棋谱 (*.pgn *.PGN)</source>
      <translation>Game records (*.pgn *.PGN)</translation>
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
      <source>第 %1 台棋谱已保存，%2 回合</source>
      <translation>Board %1: record saved, %2 moves</translation>
    </message>
    <message>
      <source>第 %1 台：%2 对 %3</source>
      <translation>Board %1: %2 v %3</translation>
    </message>
  </context>
  <context>
    <name>RoundsView</name>
    <message>
      <source>编排下一轮</source>
      <translation>Pair next round</translation>
    </message>
    <message>
      <source>结束本轮</source>
      <translation>Close round</translation>
    </message>
    <message>
      <source>台次+结果，如 12 1 回车</source>
      <translation>board+result, e.g. 12 1 Enter</translation>
    </message>
    <message>
      <source>1 红胜　0 黑胜　= 或 5 和　+ 黑弃权　- 红弃权　* 双弃权　↑↓ 换台　Ctrl+Z 撤销</source>
      <translation>1 Red wins   0 Black wins   = or 5 draw   + Black forfeits   - Red forfeits   * both forfeit   ↑↓ board   Ctrl+Z undo</translation>
    </message>
    <message>
      <source>正在编排……</source>
      <translation>Pairing…</translation>
    </message>
    <message>
      <source>编排服务尚未安装</source>
      <translation>The pairing service is not installed yet</translation>
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
      <source>本轮成绩已全部录入</source>
      <translation>All results entered</translation>
    </message>
    <message>
      <source>第 %1 轮已结束</source>
      <translation>Round %1 closed</translation>
    </message>
    <message>
      <source>更正成绩</source>
      <translation>Correct result</translation>
    </message>
    <message>
      <source>第 %1 轮</source>
      <translation>Round %1</translation>
    </message>
    <message>
      <source>未录入 %1 台</source>
      <translation>%1 boards pending</translation>
    </message>
    <message>
      <source>本轮没有第 %1 台</source>
      <translation>This round has no board %1</translation>
    </message>
    <message>
      <source>更正第 %1 台成绩的理由：</source>
      <translation>Reason for correcting board %1:</translation>
    </message>
    <message>
      <source>无法识别“%1”：请输入台次和结果，如 12 1</source>
      <translation>Cannot read “%1”: type a board and a result, e.g. 12 1</translation>
    </message>
  </context>
  <context>
    <name>UndoCommands</name>
    <message>
      <source>第 %1 轮第 %2 台：%3</source>
      <translation>Round %1 board %2: %3</translation>
    </message>
  </context>
</TS>
