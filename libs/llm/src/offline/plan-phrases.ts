/**
 * The plan policy's own lines (plan-policy.ts) in the languages the offline policy speaks: the
 * brief it records, the one-line summary after each stage, the status line when nothing can be
 * worked on, and a refused update. Item titles come in as they are on the checklist.
 */
import { toTraditional } from './han-script';
import type { OfflineLanguage } from './language';
import type { PlanKind } from './plan-kinds';

export interface PlanPhrases {
  /** The brief: the goal restated, with the stages it will go through. */
  brief: (kind: PlanKind, subject: string, stages: readonly string[]) => string;
  /** A stage is done; the next one runs next. */
  doneNext: (done: string, next: string) => string;
  /** A stage is done and the person reviews it before the next one. */
  doneReview: (done: string, next: string | undefined) => string;
  /** The last stage is done. */
  doneAll: (done: string) => string;
  waitingReview: (item: string) => string;
  blocked: (item: string) => string;
  complete: string;
  nothingReady: string;
  refused: (summary: string) => string;
  failed: (tool: string, summary: string) => string;
}

const KIND_EN: Record<PlanKind, string> = {
  video: 'a short video',
  posterSeries: 'a poster series',
  storyboard: 'a storyboard',
};
const KIND_ZH: Record<PlanKind, string> = { video: '短视频', posterSeries: '系列海报', storyboard: '分镜' };
const KIND_FR: Record<PlanKind, string> = {
  video: 'une courte vidéo',
  posterSeries: "une série d'affiches",
  storyboard: 'un storyboard',
};
const KIND_DE: Record<PlanKind, string> = {
  video: 'ein kurzes Video',
  posterSeries: 'eine Plakatserie',
  storyboard: 'ein Storyboard',
};
const KIND_ES: Record<PlanKind, string> = {
  video: 'un vídeo corto',
  posterSeries: 'una serie de carteles',
  storyboard: 'un storyboard',
};

const SIMPLIFIED: PlanPhrases = {
  brief: (kind, subject, stages) => `目标：${KIND_ZH[kind]}——${subject}。\n步骤：${stages.join(' → ')}。`,
  doneNext: (done, next) => `「${done}」已完成。下一步：「${next}」。`,
  doneReview: (done, next) =>
    next === undefined ? `「${done}」已完成，等你审阅。` : `「${done}」已完成，等你审阅后再做「${next}」。`,
  doneAll: (done) => `「${done}」已完成，清单全部完成。`,
  waitingReview: (item) => `在等你审阅「${item}」，之后再继续。`,
  blocked: (item) => `现在无法继续：「${item}」被阻塞了。`,
  complete: '所有步骤都已完成。',
  nothingReady: '现在没有可以做的步骤。',
  refused: (summary) => `清单没有接受这次更新：${summary}`,
  failed: (tool, summary) => `没有成功（${tool}）：${summary}`,
};

const TRADITIONAL: PlanPhrases = {
  brief: (kind, subject, stages) => toTraditional(SIMPLIFIED.brief(kind, subject, stages)),
  doneNext: (done, next) => toTraditional(SIMPLIFIED.doneNext(done, next)),
  doneReview: (done, next) => toTraditional(SIMPLIFIED.doneReview(done, next)),
  doneAll: (done) => toTraditional(SIMPLIFIED.doneAll(done)),
  waitingReview: (item) => toTraditional(SIMPLIFIED.waitingReview(item)),
  blocked: (item) => toTraditional(SIMPLIFIED.blocked(item)),
  complete: toTraditional(SIMPLIFIED.complete),
  nothingReady: toTraditional(SIMPLIFIED.nothingReady),
  // Summaries pass through unchanged.
  refused: (summary) => `${toTraditional('清单没有接受这次更新')}：${summary}`,
  failed: (tool, summary) => `${toTraditional('没有成功')}（${tool}）：${summary}`,
};

export const PLAN_PHRASES: Record<OfflineLanguage, PlanPhrases> = {
  'zh-Hans': SIMPLIFIED,
  'zh-Hant': TRADITIONAL,
  en: {
    brief: (kind, subject, stages) => `Deliver ${KIND_EN[kind]}: ${subject}.\nStages: ${stages.join(' → ')}.`,
    doneNext: (done, next) => `Done: ${done}. Next: ${next}.`,
    doneReview: (done, next) =>
      next === undefined
        ? `Done: ${done}. It waits for your review.`
        : `Done: ${done}. It waits for your review before ${next}.`,
    doneAll: (done) => `Done: ${done}. That was the last stage.`,
    waitingReview: (item) => `Waiting for your review of ${item} before going on.`,
    blocked: (item) => `I cannot go on right now: ${item} is blocked.`,
    complete: 'Every stage is done.',
    nothingReady: 'There is no stage I can work on right now.',
    refused: (summary) => `The checklist did not take that update: ${summary}`,
    failed: (tool, summary) => `That did not work (${tool}): ${summary}`,
  },
  fr: {
    brief: (kind, subject, stages) => `À livrer : ${KIND_FR[kind]} — ${subject}.\nÉtapes : ${stages.join(' → ')}.`,
    doneNext: (done, next) => `Étape terminée : ${done}. Suivante : ${next}.`,
    doneReview: (done, next) =>
      next === undefined
        ? `Étape terminée : ${done} ; elle attend votre relecture.`
        : `Étape terminée : ${done} ; elle attend votre relecture avant ${next}.`,
    doneAll: (done) => `Étape terminée : ${done}. C'était la dernière.`,
    waitingReview: (item) => `J'attends votre relecture de ${item} avant de continuer.`,
    blocked: (item) => `Je ne peux pas continuer pour l'instant : ${item} est bloqué.`,
    complete: 'Toutes les étapes sont terminées.',
    nothingReady: "Aucune étape n'est prête pour l'instant.",
    refused: (summary) => `La liste n'a pas accepté cette mise à jour : ${summary}`,
    failed: (tool, summary) => `Cela n'a pas marché (${tool}) : ${summary}`,
  },
  de: {
    brief: (kind, subject, stages) => `Zu liefern: ${KIND_DE[kind]} – ${subject}.\nSchritte: ${stages.join(' → ')}.`,
    doneNext: (done, next) => `Erledigt: ${done}. Als Nächstes: ${next}.`,
    doneReview: (done, next) =>
      next === undefined
        ? `Erledigt: ${done}; es wartet auf deine Prüfung.`
        : `Erledigt: ${done}; es wartet auf deine Prüfung vor ${next}.`,
    doneAll: (done) => `Erledigt: ${done}. Das war der letzte Schritt.`,
    waitingReview: (item) => `Ich warte auf deine Prüfung von ${item}, bevor es weitergeht.`,
    blocked: (item) => `Ich kann gerade nicht weiter: ${item} ist blockiert.`,
    complete: 'Alle Schritte sind erledigt.',
    nothingReady: 'Gerade ist kein Schritt bereit.',
    refused: (summary) => `Die Checkliste hat die Änderung nicht angenommen: ${summary}`,
    failed: (tool, summary) => `Das hat nicht geklappt (${tool}): ${summary}`,
  },
  es: {
    brief: (kind, subject, stages) => `Entregar ${KIND_ES[kind]}: ${subject}.\nEtapas: ${stages.join(' → ')}.`,
    doneNext: (done, next) => `Hecho: ${done}. Siguiente: ${next}.`,
    doneReview: (done, next) =>
      next === undefined
        ? `Hecho: ${done}; espera tu revisión.`
        : `Hecho: ${done}; espera tu revisión antes de ${next}.`,
    doneAll: (done) => `Hecho: ${done}. Era la última etapa.`,
    waitingReview: (item) => `Espero tu revisión de ${item} antes de seguir.`,
    blocked: (item) => `No puedo seguir ahora: ${item} está bloqueado.`,
    complete: 'Todas las etapas están hechas.',
    nothingReady: 'Ahora no hay ninguna etapa lista.',
    refused: (summary) => `La lista no aceptó esa actualización: ${summary}`,
    failed: (tool, summary) => `No funcionó (${tool}): ${summary}`,
  },
};
