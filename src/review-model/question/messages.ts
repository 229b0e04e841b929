/**
 * The questions a review asks the person the request came from, in the languages the reply fast path reads
 * (en, he, es, fr, de, pt, ru, ar). Only the wording is here: which question is asked, its options and their
 * ids are decided by code (build-question.ts). `{field}`, `{fields}` and `{what}` are filled in by code.
 */

export const LOCALES = ['en', 'he', 'es', 'fr', 'de', 'pt', 'ru', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

export interface Messages {
  /** An approval: the payload is ready and fine, a person is asked before it runs. */
  runAsIs: string;
  /** An approval after the model's schema changed under an earlier approval. */
  schemaChanged: string;
  /** Personal data in the request: may it go to the model? `{what}`: the kinds of data. */
  personalData: string;
  /** Choose one (or several) of the allowed values of `{field}`. */
  pickValue: string;
  pickValues: string;
  /** Give the value `{field}` should have. */
  giveValue: string;
  /** Nothing to build from. */
  whatToMake: string;
  /** Something is wrong with the request and cannot be asked as one field: say it again. */
  sayAgain: string;
  /** Values copied from the model's example (`{fields}`): remove them? */
  removeExampleValues: string;
  /** Part of the request (`{what}`) could not be applied: run without it? */
  runWithoutParts: string;
  /** `{field}` cannot be set at all (the model's published schema accepts no value): run without it? */
  runWithout: string;
  /** The builder gave up: try again? */
  tryAgain: string;
  /** An execution left no outcome: run it again? */
  runAgain: string;
  /** The provider refused every attempt as too many requests; nothing ran: try again? */
  providerBusy: string;
  /** Response review: keep the result? */
  keepResult: string;
  /** Said before the question again after a reply that could not be understood. */
  nudge: string;
  yes: string;
  no: string;
}

export const MESSAGES: Readonly<Record<Locale, Messages>> = {
  en: {
    runAsIs: 'Your request is ready. Shall I run it as it is?',
    schemaChanged: 'The model changed while your request waited. Shall I run your request on the new version?',
    personalData: 'Your request contains personal data ({what}). Shall I send it to the model anyway?',
    pickValue: 'Which {field} would you like?',
    pickValues: 'Which {field} would you like? You can pick several.',
    giveValue: 'What should {field} be?',
    whatToMake: 'What would you like me to make?',
    sayAgain: 'I could not use your request as it is. Could you say again what you would like?',
    removeExampleValues: 'Some values ({fields}) came from the model\'s example, not from you. Shall I remove them?',
    runWithout: '{field} cannot be set for this model. Shall I run your request without it?',
    runWithoutParts: 'This model cannot do part of your request ({what}). Shall I run it without that?',
    tryAgain: 'Something went wrong while preparing your request. Shall I try again?',
    runAgain: 'I could not tell whether your request already ran. Shall I run it again?',
    providerBusy: 'The model\'s service was too busy to take your request, so nothing ran. Shall I try again?',
    keepResult: 'Here is the result. Shall I keep it?',
    nudge: 'Sorry, I did not understand that.',
    yes: 'Yes',
    no: 'No',
  },
  he: {
    runAsIs: 'הבקשה שלך מוכנה. להריץ אותה כמו שהיא?',
    schemaChanged: 'המודל השתנה בזמן שהבקשה שלך חיכתה. להריץ את הבקשה על הגרסה החדשה?',
    personalData: 'הבקשה שלך מכילה מידע אישי ({what}). לשלוח אותה למודל בכל זאת?',
    pickValue: 'איזה {field} תרצה?',
    pickValues: 'איזה {field} תרצה? אפשר לבחור כמה.',
    giveValue: 'מה צריך להיות {field}?',
    whatToMake: 'מה תרצה שאכין?',
    sayAgain: 'לא הצלחתי להשתמש בבקשה כמו שהיא. תוכל לומר שוב מה תרצה?',
    removeExampleValues: 'חלק מהערכים ({fields}) הגיעו מהדוגמה של המודל ולא ממך. להסיר אותם?',
    runWithout: 'לא ניתן להגדיר את {field} במודל הזה. להריץ את הבקשה בלעדיו?',
    runWithoutParts: 'המודל הזה לא יכול לבצע חלק מהבקשה שלך ({what}). להריץ אותה בלי זה?',
    tryAgain: 'משהו השתבש בהכנת הבקשה שלך. לנסות שוב?',
    runAgain: 'לא ברור אם הבקשה שלך כבר רצה. להריץ אותה שוב?',
    providerBusy: 'השירות של המודל היה עמוס מכדי לקבל את הבקשה שלך, ולכן היא לא רצה. לנסות שוב?',
    keepResult: 'הנה התוצאה. לשמור אותה?',
    nudge: 'סליחה, לא הבנתי.',
    yes: 'כן',
    no: 'לא',
  },
  es: {
    runAsIs: 'Tu solicitud está lista. ¿La ejecuto tal como está?',
    schemaChanged: 'El modelo cambió mientras tu solicitud esperaba. ¿La ejecuto con la nueva versión?',
    personalData: 'Tu solicitud contiene datos personales ({what}). ¿La envío al modelo de todos modos?',
    pickValue: '¿Qué {field} quieres?',
    pickValues: '¿Qué {field} quieres? Puedes elegir varios.',
    giveValue: '¿Qué valor debe tener {field}?',
    whatToMake: '¿Qué quieres que haga?',
    sayAgain: 'No pude usar tu solicitud tal como está. ¿Puedes decirme otra vez qué quieres?',
    removeExampleValues: 'Algunos valores ({fields}) vienen del ejemplo del modelo, no de ti. ¿Los quito?',
    runWithout: '{field} no se puede ajustar en este modelo. ¿Ejecuto tu solicitud sin ello?',
    runWithoutParts: 'Este modelo no puede hacer parte de tu solicitud ({what}). ¿La ejecuto sin eso?',
    tryAgain: 'Algo salió mal al preparar tu solicitud. ¿Lo intento de nuevo?',
    runAgain: 'No sé si tu solicitud ya se ejecutó. ¿La ejecuto otra vez?',
    providerBusy: 'El servicio del modelo estaba demasiado ocupado para aceptar tu solicitud, así que no se ejecutó. ¿Lo intento otra vez?',
    keepResult: 'Aquí está el resultado. ¿Lo guardo?',
    nudge: 'Perdona, no te he entendido.',
    yes: 'Sí',
    no: 'No',
  },
  fr: {
    runAsIs: 'Votre demande est prête. Je la lance telle quelle ?',
    schemaChanged: 'Le modèle a changé pendant que votre demande attendait. Je la lance sur la nouvelle version ?',
    personalData: 'Votre demande contient des données personnelles ({what}). Je l\'envoie quand même au modèle ?',
    pickValue: 'Quel {field} souhaitez-vous ?',
    pickValues: 'Quels {field} souhaitez-vous ? Vous pouvez en choisir plusieurs.',
    giveValue: 'Quelle valeur pour {field} ?',
    whatToMake: 'Que voulez-vous que je fasse ?',
    sayAgain: 'Je n\'ai pas pu utiliser votre demande telle quelle. Pouvez-vous redire ce que vous voulez ?',
    removeExampleValues: 'Certaines valeurs ({fields}) viennent de l\'exemple du modèle, pas de vous. Je les retire ?',
    runWithout: '{field} ne peut pas être réglé pour ce modèle. Je lance votre demande sans ?',
    runWithoutParts: 'Ce modèle ne peut pas faire une partie de votre demande ({what}). Je la lance sans cela ?',
    tryAgain: 'Un problème est survenu en préparant votre demande. Je réessaie ?',
    runAgain: 'Je ne sais pas si votre demande a déjà été lancée. Je la relance ?',
    providerBusy: 'Le service du modèle était trop occupé pour accepter votre demande : rien n\'a été lancé. Je réessaie ?',
    keepResult: 'Voici le résultat. Je le garde ?',
    nudge: 'Désolé, je n\'ai pas compris.',
    yes: 'Oui',
    no: 'Non',
  },
  de: {
    runAsIs: 'Deine Anfrage ist fertig. Soll ich sie so ausführen?',
    schemaChanged: 'Das Modell hat sich geändert, während deine Anfrage gewartet hat. Soll ich sie mit der neuen Version ausführen?',
    personalData: 'Deine Anfrage enthält persönliche Daten ({what}). Soll ich sie trotzdem an das Modell senden?',
    pickValue: 'Welches {field} möchtest du?',
    pickValues: 'Welche {field} möchtest du? Du kannst mehrere wählen.',
    giveValue: 'Welchen Wert soll {field} haben?',
    whatToMake: 'Was soll ich für dich machen?',
    sayAgain: 'Ich konnte deine Anfrage so nicht verwenden. Kannst du noch einmal sagen, was du möchtest?',
    removeExampleValues: 'Einige Werte ({fields}) stammen aus dem Beispiel des Modells, nicht von dir. Soll ich sie entfernen?',
    runWithout: '{field} lässt sich bei diesem Modell nicht einstellen. Soll ich deine Anfrage ohne ausführen?',
    runWithoutParts: 'Dieses Modell kann einen Teil deiner Anfrage ({what}) nicht umsetzen. Soll ich sie ohne das ausführen?',
    tryAgain: 'Beim Vorbereiten deiner Anfrage ist etwas schiefgegangen. Soll ich es noch einmal versuchen?',
    runAgain: 'Ich weiß nicht, ob deine Anfrage schon ausgeführt wurde. Soll ich sie noch einmal ausführen?',
    providerBusy: 'Der Dienst des Modells war zu ausgelastet, um deine Anfrage anzunehmen; es wurde nichts ausgeführt. Soll ich es noch einmal versuchen?',
    keepResult: 'Hier ist das Ergebnis. Soll ich es behalten?',
    nudge: 'Entschuldige, das habe ich nicht verstanden.',
    yes: 'Ja',
    no: 'Nein',
  },
  pt: {
    runAsIs: 'O seu pedido está pronto. Posso executá-lo como está?',
    schemaChanged: 'O modelo mudou enquanto o seu pedido esperava. Posso executá-lo na nova versão?',
    personalData: 'O seu pedido contém dados pessoais ({what}). Posso enviá-lo ao modelo mesmo assim?',
    pickValue: 'Qual {field} você quer?',
    pickValues: 'Quais {field} você quer? Pode escolher vários.',
    giveValue: 'Qual deve ser o valor de {field}?',
    whatToMake: 'O que você quer que eu faça?',
    sayAgain: 'Não consegui usar o seu pedido como está. Pode dizer de novo o que quer?',
    removeExampleValues: 'Alguns valores ({fields}) vieram do exemplo do modelo, não de você. Posso removê-los?',
    runWithout: '{field} não pode ser definido neste modelo. Executo o seu pedido sem isso?',
    runWithoutParts: 'Este modelo não consegue fazer parte do seu pedido ({what}). Executo sem isso?',
    tryAgain: 'Algo deu errado ao preparar o seu pedido. Posso tentar de novo?',
    runAgain: 'Não sei se o seu pedido já foi executado. Posso executá-lo de novo?',
    providerBusy: 'O serviço do modelo estava ocupado demais para aceitar o seu pedido, então nada foi executado. Posso tentar de novo?',
    keepResult: 'Aqui está o resultado. Posso guardá-lo?',
    nudge: 'Desculpe, não entendi.',
    yes: 'Sim',
    no: 'Não',
  },
  ru: {
    runAsIs: 'Ваш запрос готов. Запустить его как есть?',
    schemaChanged: 'Пока ваш запрос ждал, модель изменилась. Запустить его на новой версии?',
    personalData: 'В вашем запросе есть личные данные ({what}). Всё равно отправить его модели?',
    pickValue: 'Какой {field} вы хотите?',
    pickValues: 'Какие {field} вы хотите? Можно выбрать несколько.',
    giveValue: 'Каким должно быть {field}?',
    whatToMake: 'Что мне сделать?',
    sayAgain: 'Я не смог использовать ваш запрос как есть. Скажите ещё раз, что вы хотите?',
    removeExampleValues: 'Некоторые значения ({fields}) взяты из примера модели, а не от вас. Убрать их?',
    runWithout: '{field} нельзя задать для этой модели. Запустить запрос без этого?',
    runWithoutParts: 'Эта модель не может выполнить часть запроса ({what}). Запустить без этого?',
    tryAgain: 'При подготовке вашего запроса что-то пошло не так. Попробовать ещё раз?',
    runAgain: 'Неясно, был ли ваш запрос уже выполнен. Запустить его ещё раз?',
    providerBusy: 'Сервис модели был слишком загружен и не принял ваш запрос, поэтому ничего не выполнено. Попробовать ещё раз?',
    keepResult: 'Вот результат. Оставить его?',
    nudge: 'Извините, я не понял.',
    yes: 'Да',
    no: 'Нет',
  },
  ar: {
    runAsIs: 'طلبك جاهز. هل أنفّذه كما هو؟',
    schemaChanged: 'تغيّر النموذج بينما كان طلبك ينتظر. هل أنفّذه على الإصدار الجديد؟',
    personalData: 'يحتوي طلبك على بيانات شخصية ({what}). هل أرسله إلى النموذج على أي حال؟',
    pickValue: 'أي {field} تريد؟',
    pickValues: 'أي {field} تريد؟ يمكنك اختيار أكثر من واحد.',
    giveValue: 'ماذا يجب أن تكون قيمة {field}؟',
    whatToMake: 'ماذا تريد أن أصنع لك؟',
    sayAgain: 'لم أستطع استخدام طلبك كما هو. هل يمكنك أن تقول مرة أخرى ما تريد؟',
    removeExampleValues: 'بعض القيم ({fields}) جاءت من مثال النموذج وليس منك. هل أزيلها؟',
    runWithout: 'لا يمكن ضبط {field} في هذا النموذج. هل أشغّل طلبك بدونه؟',
    runWithoutParts: 'لا يستطيع هذا النموذج تنفيذ جزء من طلبك ({what}). هل أشغّله بدون ذلك؟',
    tryAgain: 'حدث خطأ أثناء تجهيز طلبك. هل أحاول مرة أخرى؟',
    runAgain: 'لا أعرف إن كان طلبك قد نُفّذ بالفعل. هل أنفّذه مرة أخرى؟',
    providerBusy: 'كانت خدمة النموذج مشغولة جدًا ولم تقبل طلبك، لذلك لم يُنفَّذ شيء. هل أحاول مرة أخرى؟',
    keepResult: 'هذه هي النتيجة. هل أحتفظ بها؟',
    nudge: 'عذرًا، لم أفهم.',
    yes: 'نعم',
    no: 'لا',
  },
};

/** The message with its placeholders filled in. */
export function message(locale: Locale, key: keyof Messages, fill: Record<string, string> = {}): string {
  return MESSAGES[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => fill[name] ?? whole);
}
