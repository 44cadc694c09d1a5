package config

import "strings"

// WorldStatuses is the status vocabulary of the world (D97): the words
// real decision and proposal processes write for each of the five
// statuses, by language. Each row is a language, a status and its words,
// lower case, as StatusWords leaves them (emphasis, links and anything
// after the phrase removed). DefaultStatuses adds every word to the
// vocabulary; a word in two rows must mean the same status in both (a
// test keeps it so), and a word the table lacks is still reported, never
// guessed. The English proposed row lists a process's first stages
// (draft, idea, …) before its first review stage: new writes one of
// those where the collection's records do (D96).
var WorldStatuses = []struct {
	Lang, Status, Words string
}{
	{"en", "accepted", "final, approved, implemented, released, stable, active, done, decided, in effect, living, recommended, ready for release, shipped, completed, complete, merged, agreed, adopted, resolved, partially implemented, partially stable, accepted with modifications, accepted with revisions, implementable"},
	{"en", "proposed", "draft, idea, pre-rfc, rfc, open, pending, provisional, exploring, review, active review, in review, under review, incomplete, under discussion, public discussion, in discussion, last call, to be reviewed, stagnant, design review, experimental, prototype, prototyped, preview"},
	{"en", "rejected", "declined, withdrawn, abandoned, returned for revision, dropped, expired, refused, postponed, deferred"},
	{"en", "deprecated", "obsolete, retired, discontinued, archived, inactive, sunset, sunsetted, deprecate"},
	{"en", "superseded", "replaced, superceded"},
	{"de", "accepted", "akzeptiert, angenommen, genehmigt, beschlossen, entschieden, umgesetzt, implementiert, aktiv, gültig, freigegeben, in kraft, abgeschlossen, final"},
	{"de", "proposed", "vorgeschlagen, vorschlag, entwurf, in prüfung, in bearbeitung, in diskussion, zur diskussion, offen, ausstehend"},
	{"de", "rejected", "abgelehnt, zurückgezogen, verworfen, aufgegeben"},
	{"de", "deprecated", "veraltet, überholt, obsolet, abgekündigt, archiviert, eingestellt, außer kraft"},
	{"de", "superseded", "ersetzt, abgelöst"},
	{"es", "accepted", "aceptado, aceptada, aprobado, aprobada, implementado, implementada, vigente, activo, activa, decidido, decidida, finalizado, finalizada"},
	{"es", "proposed", "propuesto, propuesta, borrador, en revisión, en discusión, pendiente, abierto, abierta, en progreso, en curso"},
	{"es", "rejected", "rechazado, rechazada, retirado, retirada, abandonado, abandonada, descartado, descartada, declinado, declinada"},
	{"es", "deprecated", "obsoleto, obsoleta, deprecado, deprecada, en desuso, archivado, archivada, descontinuado, descontinuada"},
	{"es", "superseded", "reemplazado, reemplazada, sustituido, sustituida, supersedido, supersedida, superado, superada"},
	{"pt", "accepted", "aceito, aceita, aprovado, aprovada, implementado, implementada, ativo, ativa, decidido, decidida, concluído, concluída, em vigor"},
	{"pt", "proposed", "proposto, proposta, rascunho, em revisão, em discussão, pendente, aberto, aberta, em andamento, em análise"},
	{"pt", "rejected", "rejeitado, rejeitada, recusado, recusada, retirado, retirada, abandonado, abandonada, descartado, descartada"},
	{"pt", "deprecated", "obsoleto, obsoleta, depreciado, depreciada, descontinuado, descontinuada, arquivado, arquivada, deprecado, deprecada"},
	{"pt", "superseded", "substituído, substituída, substituido, substituida, suplantado, suplantada"},
	{"fr", "accepted", "accepté, acceptée, approuvé, approuvée, adopté, adoptée, implémenté, implémentée, mis en œuvre, en vigueur, actif, active, validé, validée, décidé, décidée, finale"},
	{"fr", "proposed", "proposé, proposée, brouillon, en revue, en cours de revue, en discussion, en attente, ouvert, ouverte, en cours"},
	{"fr", "rejected", "rejeté, rejetée, refusé, refusée, retiré, retirée, abandonné, abandonnée"},
	{"fr", "deprecated", "obsolète, déprécié, dépréciée, archivé, archivée"},
	{"fr", "superseded", "remplacé, remplacée, supplanté, supplantée"},
	{"it", "accepted", "accettato, accettata, approvato, approvata, implementato, implementata, attivo, attiva, deciso, decisa, in vigore, definitivo, definitiva"},
	{"it", "proposed", "proposto, proposta, bozza, in revisione, in discussione, in attesa, aperto, aperta, in corso"},
	{"it", "rejected", "rifiutato, rifiutata, respinto, respinta, ritirato, ritirata, abbandonato, abbandonata"},
	{"it", "deprecated", "obsoleto, obsoleta, deprecato, deprecata, archiviato, archiviata, dismesso, dismessa"},
	{"it", "superseded", "sostituito, sostituita, superato, superata"},
	{"zh", "accepted", "已接受, 接受, 已采纳, 采纳, 已采用, 采用, 已批准, 批准, 已通过, 通过, 已实施, 实施, 已实现, 已完成, 完成, 已决定, 生效, 已生效, 定稿, 已定稿, 已採納, 採納, 已採用, 已實施, 已實現, 已決定"},
	{"zh", "proposed", "提议, 提议中, 提案, 草案, 草稿, 审核中, 评审中, 讨论中, 待定, 待审核, 进行中, 建议, 提議, 審核中, 評審中, 討論中, 進行中"},
	{"zh", "rejected", "已拒绝, 拒绝, 驳回, 已驳回, 已撤回, 撤回, 已放弃, 放弃, 已拒絕, 拒絕, 駁回, 已放棄, 放棄"},
	{"zh", "deprecated", "已废弃, 废弃, 已弃用, 弃用, 已过时, 过时, 已归档, 归档, 停用, 已停用, 已廢棄, 廢棄, 棄用, 過時, 已歸檔"},
	{"zh", "superseded", "已替代, 替代, 已取代, 取代, 被取代, 被替代, 已替换, 已替換"},
	{"ja", "accepted", "承認, 承認済み, 承認済, 採用, 採用済み, 採択, 採択済み, 決定, 決定済み, 実装済み, 完了, 有効, 確定"},
	{"ja", "proposed", "提案, 提案中, 草案, ドラフト, レビュー中, 検討中, 議論中, 保留, 未決"},
	{"ja", "rejected", "却下, 不採用, 取り下げ, 撤回, 廃案"},
	{"ja", "deprecated", "非推奨, 廃止, 廃止済み, アーカイブ, 無効"},
	{"ja", "superseded", "置き換え, 置き換え済み, 置換済み, 代替済み"},
	{"ko", "accepted", "승인, 승인됨, 수락, 수락됨, 채택, 채택됨, 결정, 결정됨, 구현됨, 완료, 확정, 적용됨, 시행"},
	{"ko", "proposed", "제안, 제안됨, 초안, 검토 중, 검토중, 논의 중, 논의중, 보류, 진행 중, 진행중"},
	{"ko", "rejected", "거부, 거부됨, 반려, 반려됨, 철회, 철회됨, 기각, 기각됨"},
	{"ko", "deprecated", "폐기, 폐기됨, 폐지, 폐지됨, 사용 중단, 지원 중단, 보관, 보관됨"},
	{"ko", "superseded", "대체, 대체됨"},
}

func addWorld(m map[string]string) {
	for _, row := range WorldStatuses {
		for _, w := range strings.Split(row.Words, ",") {
			if w = strings.TrimSpace(w); w != "" {
				if _, ok := m[w]; !ok {
					m[w] = row.Status
				}
			}
		}
	}
}
