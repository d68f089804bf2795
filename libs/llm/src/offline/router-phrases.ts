import { toTraditional } from './han-script';
import { replyLanguage, type OfflineLanguage } from './language';

/**
 * The router's own short texts (replies in Main, clarification questions and button labels), in
 * the person's language and script: `routerPhrase(kind, languageTag, { goal })`. Any BCP 47 tag
 * works (zh-TW and zh-Hant answer in Traditional characters; unknown languages get English).
 */
export const ROUTER_PHRASE_KINDS = [
  'targetArchived',
  'targetStopped',
  'targetCompleted',
  'targetDeleted',
  'targetMissing',
  'ambiguous',
  'whichTask',
  'startNew',
  'reopen',
  'pickAnother',
  'paused',
  'modelUnavailable',
  'capabilities',
  'greeting',
  'thanks',
] as const;
export type RouterPhraseKind = (typeof ROUTER_PHRASE_KINDS)[number];

export interface RouterPhraseVars {
  /** The task's goal, quoted where a phrase names the task. */
  goal?: string;
}

type Table = Record<RouterPhraseKind, (goal: string) => string>;

const EN: Table = {
  targetArchived: (g) => `The task “${g}” is archived. Reopen it, start a new task, or pick another?`,
  targetStopped: (g) => `The task “${g}” was stopped. Reopen it, start a new task, or pick another?`,
  targetCompleted: (g) => `The task “${g}” is completed. Reopen it, start a new task, or pick another?`,
  targetDeleted: () => 'That item was deleted. Start a new task, or pick another?',
  targetMissing: () => 'I cannot find that task. Start a new task, or pick another?',
  ambiguous: () => 'This could belong to more than one task. Which one do you mean?',
  whichTask: () => 'Which task is this for?',
  startNew: () => 'Start a new one',
  reopen: () => 'Reopen',
  pickAnother: () => 'Pick another',
  paused: (g) => `The task “${g}” is paused; your message waits in its inbox until it resumes.`,
  modelUnavailable: () => 'I could not work out where this message belongs right now. Which task is it for?',
  capabilities: () =>
    'This is the offline demo (no model): I answer simple questions here, send follow-ups back to the task they match, ask when two tasks match equally, and start quick or longer tasks for new requests.',
  greeting: () => 'Hello! What would you like to make?',
  thanks: () => 'You are welcome!',
};

const ZH_HANS: Table = {
  targetArchived: (g) => `任务「${g}」已归档。要重新打开、新建一个任务，还是选择别的任务？`,
  targetStopped: (g) => `任务「${g}」已停止。要重新打开、新建一个任务，还是选择别的任务？`,
  targetCompleted: (g) => `任务「${g}」已完成。要重新打开、新建一个任务，还是选择别的任务？`,
  targetDeleted: () => '那个内容已被删除。要新建一个任务，还是选择别的任务？',
  targetMissing: () => '找不到那个任务。要新建一个任务，还是选择别的任务？',
  ambiguous: () => '这条消息可能属于不止一个任务。你指的是哪一个？',
  whichTask: () => '这是给哪个任务的？',
  startNew: () => '新建一个',
  reopen: () => '重新打开',
  pickAnother: () => '选择别的',
  paused: (g) => `任务「${g}」已暂停；你的消息会留在它的收件箱，恢复后处理。`,
  modelUnavailable: () => '我现在无法判断这条消息属于哪里。这是给哪个任务的？',
  capabilities: () =>
    '这是离线演示（没有模型）：我在这里回答简单的问题，把后续消息送回匹配的任务，两个任务同样匹配时会问你，新的请求会新建快速或长期的任务。',
  greeting: () => '你好！想做点什么？',
  thanks: () => '不客气！',
};

const ZH_HANT: Table = Object.fromEntries(
  Object.entries(ZH_HANS).map(([kind, phrase]) => [
    kind,
    // Only our own words change script; the task's goal is quoted as the person wrote it.
    (g: string) => toTraditional(phrase('\u0000')).replace('\u0000', g),
  ]),
) as Table;

const FR: Table = {
  targetArchived: (g) =>
    `La tâche « ${g} » est archivée. La rouvrir, en commencer une nouvelle ou en choisir une autre ?`,
  targetStopped: (g) =>
    `La tâche « ${g} » a été arrêtée. La rouvrir, en commencer une nouvelle ou en choisir une autre ?`,
  targetCompleted: (g) =>
    `La tâche « ${g} » est terminée. La rouvrir, en commencer une nouvelle ou en choisir une autre ?`,
  targetDeleted: () => 'Cet élément a été supprimé. Commencer une nouvelle tâche ou en choisir une autre ?',
  targetMissing: () => 'Je ne trouve pas cette tâche. Commencer une nouvelle tâche ou en choisir une autre ?',
  ambiguous: () => 'Ce message peut concerner plusieurs tâches. Laquelle voulez-vous dire ?',
  whichTask: () => 'Pour quelle tâche est-ce ?',
  startNew: () => 'En commencer une nouvelle',
  reopen: () => 'Rouvrir',
  pickAnother: () => 'En choisir une autre',
  paused: (g) => `La tâche « ${g} » est en pause ; votre message attend dans sa boîte jusqu'à sa reprise.`,
  modelUnavailable: () => "Je n'arrive pas à savoir pour l'instant où va ce message. Pour quelle tâche est-ce ?",
  capabilities: () =>
    'Ceci est la démo hors ligne (sans modèle) : je réponds ici aux questions simples, je renvoie les suites à la tâche qui leur correspond, je demande quand deux tâches correspondent autant, et je lance des tâches rapides ou longues pour les nouvelles demandes.',
  greeting: () => "Bonjour ! Qu'aimeriez-vous créer ?",
  thanks: () => 'Avec plaisir !',
};

const DE: Table = {
  targetArchived: (g) =>
    `Die Aufgabe „${g}“ ist archiviert. Wieder öffnen, eine neue beginnen oder eine andere wählen?`,
  targetStopped: (g) => `Die Aufgabe „${g}“ wurde gestoppt. Wieder öffnen, eine neue beginnen oder eine andere wählen?`,
  targetCompleted: (g) =>
    `Die Aufgabe „${g}“ ist abgeschlossen. Wieder öffnen, eine neue beginnen oder eine andere wählen?`,
  targetDeleted: () => 'Das wurde gelöscht. Eine neue Aufgabe beginnen oder eine andere wählen?',
  targetMissing: () => 'Ich finde diese Aufgabe nicht. Eine neue Aufgabe beginnen oder eine andere wählen?',
  ambiguous: () => 'Das könnte zu mehr als einer Aufgabe gehören. Welche meinst du?',
  whichTask: () => 'Für welche Aufgabe ist das?',
  startNew: () => 'Eine neue beginnen',
  reopen: () => 'Wieder öffnen',
  pickAnother: () => 'Eine andere wählen',
  paused: (g) => `Die Aufgabe „${g}“ ist pausiert; deine Nachricht wartet in ihrem Eingang, bis sie weiterläuft.`,
  modelUnavailable: () => 'Ich kann gerade nicht erkennen, wohin diese Nachricht gehört. Für welche Aufgabe ist sie?',
  capabilities: () =>
    'Das ist die Offline-Demo (kein Modell): Ich beantworte hier einfache Fragen, schicke Folgenachrichten an die passende Aufgabe, frage nach, wenn zwei Aufgaben gleich gut passen, und beginne für neue Wünsche kurze oder längere Aufgaben.',
  greeting: () => 'Hallo! Was möchtest du gestalten?',
  thanks: () => 'Gern geschehen!',
};

const ES: Table = {
  targetArchived: (g) => `La tarea «${g}» está archivada. ¿Reabrirla, empezar una nueva o elegir otra?`,
  targetStopped: (g) => `La tarea «${g}» se detuvo. ¿Reabrirla, empezar una nueva o elegir otra?`,
  targetCompleted: (g) => `La tarea «${g}» está terminada. ¿Reabrirla, empezar una nueva o elegir otra?`,
  targetDeleted: () => 'Eso se borró. ¿Empezar una tarea nueva o elegir otra?',
  targetMissing: () => 'No encuentro esa tarea. ¿Empezar una tarea nueva o elegir otra?',
  ambiguous: () => 'Esto podría ser de más de una tarea. ¿Cuál quieres decir?',
  whichTask: () => '¿Para qué tarea es esto?',
  startNew: () => 'Empezar una nueva',
  reopen: () => 'Reabrir',
  pickAnother: () => 'Elegir otra',
  paused: (g) => `La tarea «${g}» está en pausa; tu mensaje espera en su bandeja hasta que continúe.`,
  modelUnavailable: () => 'Ahora no puedo saber a dónde va este mensaje. ¿Para qué tarea es?',
  capabilities: () =>
    'Esta es la demo sin conexión (sin modelo): respondo aquí preguntas sencillas, envío los seguimientos a la tarea que coincide, pregunto cuando dos tareas coinciden por igual y creo tareas rápidas o largas para pedidos nuevos.',
  greeting: () => '¡Hola! ¿Qué te gustaría crear?',
  thanks: () => '¡De nada!',
};

const TABLES: Record<OfflineLanguage, Table> = {
  en: EN,
  'zh-Hans': ZH_HANS,
  'zh-Hant': ZH_HANT,
  fr: FR,
  de: DE,
  es: ES,
};

/** One of the router's texts in the language (any BCP 47 tag) and script of the person. */
export function routerPhrase(
  kind: RouterPhraseKind,
  language: string | undefined,
  vars: RouterPhraseVars = {},
): string {
  return TABLES[replyLanguage(language)][kind](vars.goal ?? '');
}
